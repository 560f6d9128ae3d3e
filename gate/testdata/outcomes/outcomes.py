"""A subject whose calls return, raise and fail in every way a report shows
(report_bytes_test.go)."""
import os


class Coded(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


def f(x):
    if x == "raise":
        raise ValueError("bad \u00e9 input <&>")
    if x == "coded":
        raise Coded("with a code", 7)
    if x == "crash":
        os._exit(3)
    if x == "nan":
        return float("nan")
    if x == "set":
        return {1, 2}
    if x == "object":
        return {"b": [1, 2.5, None, False], "a": "x\"y\\z\n\u00e9\u2028<>&\x01", "c": {"d": True, "": []}}
    if x == "big":
        return [123456789012345678901234567890, -9007199254740993, 2**63]
    if x == "floats":
        return [1.0, -0.0, 1e300, 2.5e-7, 3, 0.1, -1.5e-10]
    if x == "text":
        return ["caf\u00e9", "\t", "\ud83d\ude00", "", "<b>"]
    if x == "deep":
        v = [1]
        for _ in range(300):
            v = [v]
        return v
    if isinstance(x, list):
        return sorted(x)
    return x
