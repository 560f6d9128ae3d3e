import unittest

from wallet.ledger import deposit, withdraw


class LedgerTest(unittest.TestCase):
    def test_withdraw(self):
        self.assertEqual(withdraw(1000, 250), 750)

    def test_withdraw_all(self):
        self.assertEqual(withdraw(500, 500), 0)

    def test_deposit(self):
        self.assertEqual(deposit(withdraw(100, 40), 40), 100)


if __name__ == "__main__":
    unittest.main()
