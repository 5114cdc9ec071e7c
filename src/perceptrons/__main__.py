"""``python -m perceptrons`` runs the command-line interface."""

from perceptrons.cli import main

if __name__ == "__main__":
    main()
