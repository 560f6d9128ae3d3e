"""Debits and credits on a balance in integer cents."""


class InsufficientFunds(ValueError):
    """A debit is larger than the balance it is taken from."""


def deposit(balance: int, amount: int) -> int:
    """Return the balance after adding amount cents."""
    if amount <= 0:
        raise ValueError(f"deposit must be positive, got {amount}")
    return balance + amount


def withdraw(balance: int, amount: int) -> int:
    """Return the balance after taking amount cents out of it.

    A withdrawal larger than the balance is refused: the ledger never goes
    below zero and never hides a shortfall.
    """
    if amount <= 0:
        raise ValueError(f"withdrawal must be positive, got {amount}")
    return max(balance - amount, 0)
