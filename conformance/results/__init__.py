"""Stage 3, results: turn what cases did into outcomes, and outcomes into reports.

The closed outcome model, expectations (waivers) and their matching, case identity,
``summary.json`` and the run verdict, Allure labels and files, environment facts, HTML
rendering and the Allure history that spans runs, and how the files of a run or bundle made
elsewhere are read (:mod:`.untrusted`) and a bundle's integrity is checked (:mod:`.integrity`).
Pure functions over plain data where possible, so that the judge, ``verify`` and ``gate``
classify the same records identically.
"""
