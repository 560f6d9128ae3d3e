"""Invoices for the shop, in integer cents."""
