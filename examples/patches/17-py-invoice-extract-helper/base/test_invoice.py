import unittest

from billing.invoice import invoice_total


class InvoiceTotalTest(unittest.TestCase):
    def test_plain(self):
        self.assertEqual(invoice_total([{"unit_cents": 250, "qty": 4}], 0.0), 1000)

    def test_discount_and_tax(self):
        lines = [{"unit_cents": 1000, "qty": 1, "discount_pct": 10}]
        self.assertEqual(invoice_total(lines, 0.2), 1080)


if __name__ == "__main__":
    unittest.main()
