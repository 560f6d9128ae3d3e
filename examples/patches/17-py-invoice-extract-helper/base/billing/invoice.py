"""Invoice totals in integer cents."""


def invoice_total(lines: list[dict], tax_rate: float) -> int:
    """Return the invoice total in cents, tax included.

    Each line is {"unit_cents": int, "qty": int, "discount_pct": int}, the
    discount optional. Each line is rounded to the cent before it is added,
    as the printed invoice shows it.
    """
    if tax_rate < 0:
        raise ValueError(f"tax rate {tax_rate} is negative")
    subtotal = 0
    for line in lines:
        if line["qty"] < 0:
            raise ValueError(f"negative quantity in {line!r}")
        gross = line["unit_cents"] * line["qty"]
        discount = line.get("discount_pct", 0)
        subtotal += round(gross * (100 - discount) / 100)
    return round(subtotal * (1 + tax_rate))
