"""Prints which provider keys are set in the environment; never their values."""
import os

for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_ACCESS_KEY_ID"):
    print(f"{var}: {'set' if os.environ.get(var) else 'not set'}")
