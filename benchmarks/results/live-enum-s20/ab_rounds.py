"""The outputs of an A/B run's rounds, shared by lt-ab.py and lt-iters.py."""
import os


def round_files(directory, rounds, suffix):
    """Yields (side, path) for each round's output that exists, <directory>/<side>-<round><suffix>, base before new."""
    for side in ('base', 'new'):
        for r in range(1, rounds + 1):
            path = f'{directory}/{side}-{r}{suffix}'
            if os.path.exists(path):
                yield side, path
