"""`hotpath`: practise Hotpath exercises from your own editor and terminal, through the public API."""
