"""The repository under test, loaded once: repo, skills, datasets, machine plans, findings."""
