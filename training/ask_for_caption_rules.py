"""Writes `attend.text_rules: caption` into model files exported before the key existed (2026-12-02):
  /usr/bin/python3 training/ask_for_caption_rules.py models/*/*.safetensors
The tensors stay as they are. Attend's own Multi30k models ask for the caption layer's rules; a
file without the key (an imported model) gets none (TranslateOptions::caption_rules)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attend_ref.export import ask_for_text_rules  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", help="model files (.safetensors), rewritten in place")
    args = p.parse_args()
    for path in args.files:
        try:
            ask_for_text_rules(path, "caption")
        except (OSError, ValueError) as error:
            sys.exit(f"ask_for_caption_rules: {path}: {error}")
        print(f"{path}: caption")


if __name__ == "__main__":
    main()
