"""Letter grades for exam scores."""


def letter(score: int) -> str:
    """Return the letter grade for a score from 0 to 100."""
    if not isinstance(score, int) or isinstance(score, bool):
        raise TypeError(f"score must be an int, got {type(score).__name__}")
    if score < 0 or score > 100:
        raise ValueError(f"score {score} is outside 0..100")
    if score >= 90:
        grade = "A"
    elif score >= 80:
        grade = "B"
    elif score >= 70:
        grade = "C"
    elif score >= 60:
        grade = "D"
    else:
        grade = "F"
    return grade


def report(scores: dict[str, int]) -> dict[str, str]:
    """Return each student's letter grade."""
    return {name: letter(score) for name, score in scores.items()}
