"""Helpers of the governed-finance tests: landing-table writers, scenarios and databases of their own."""
