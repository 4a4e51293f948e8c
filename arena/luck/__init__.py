"""Luck: what the dice gave each seat, taken out of a game's result.

At every chance event of a stored game, a seat's luck is the value of the
position the actual dice made minus the average value over every outcome
the engine's chance request allows (all of them where they are few, an
unbiased sample where they are many); a game's luck is the sum, and the
luck-adjusted result is the result minus it. Each term has mean zero given
the history whatever the value estimate, so the adjusted result has the
result's expectation, with less of the dice in its spread the better the
estimate (``values``: the house evaluations, calibrated to expected points).
"""
