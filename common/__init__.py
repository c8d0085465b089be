"""What the apps share and none of them owns. It imports no app, so every app may use it."""
