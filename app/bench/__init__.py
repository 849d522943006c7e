"""Benchmarks that print figures against a baseline in the same run: random playouts and
clones (`playouts`), search agents and time budgets (`search`), the Parket solver
(`solver`), and a tournament's parallel speed-up (`parallel`)."""
