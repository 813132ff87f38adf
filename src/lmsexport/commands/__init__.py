"""What each CLI command does, apart from argument parsing: kept out of cli.py so `--version` stays fast."""
