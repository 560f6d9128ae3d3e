import unittest

from leaderboard import top_players


class TopPlayersTest(unittest.TestCase):
    def test_top_two(self):
        self.assertEqual(top_players({"ann": 5, "bob": 9, "cy": 7}, 2), ["bob", "cy"])

    def test_ties_by_name(self):
        self.assertEqual(top_players({"zed": 3, "amy": 3}, 2), ["amy", "zed"])


if __name__ == "__main__":
    unittest.main()
