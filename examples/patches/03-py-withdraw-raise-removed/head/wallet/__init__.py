"""Balances kept in integer cents."""
