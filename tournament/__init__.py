"""Playing matches between agents: single games, schedules, ratings and reports."""
