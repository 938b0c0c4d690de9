"""Names the languages of model files exported before `attend.languages` existed (2026-12-01):
  /usr/bin/python3 training/name_languages.py en-de models/en-de/*.safetensors
The tensors stay as they are. With its languages named, the engine knows which of them a sentence
is already in ("Danke!" given to en-de stays "Danke!") and refuses to ensemble an en-de model
with a de-en one."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attend_ref.export import name_languages  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("languages", help="SOURCE-TARGET ISO 639 codes, e.g. en-de")
    p.add_argument("files", nargs="+", help="model files (.safetensors), rewritten in place")
    args = p.parse_args()
    for path in args.files:
        try:
            name_languages(path, args.languages)
        except (OSError, ValueError) as error:
            sys.exit(f"name_languages: {path}: {error}")
        print(f"{path}: {args.languages}")


if __name__ == "__main__":
    main()
