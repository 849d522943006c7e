"""Play at the terminal: a game as a protocol session in this process (`table`), drawn
from the seats' views (`view`, `cardtext`), moves typed as numbers or notation (`typed`),
and games and records shown as logs (`show`)."""
