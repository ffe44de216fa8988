"""Multi-player and alternative scoring systems built on the two-player hand (chapter 14):
three players in rotation (THREE.*), two partnerships (PARTNER.*), Hollywood scoring
(HOLLYWOOD.*) and the settlement that ends each of them (SETTLE.*)."""
