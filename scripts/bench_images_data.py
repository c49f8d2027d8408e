"""Fashion-MNIST as faexplorer-cli reads it (issue 29; core/io/ImageSets.cpp, core/data/ImageData.h):
the 60,000 training images then the 10,000 test images of Debian's dataset-fashion-mnist, pixels
value / 255 in [0, 1] (never z-scored), the pixels constant in the fitting rows left out of the
model (ImageLayout::dropConstantColumns), the last rows held out (pictures are split in the files'
order, not shuffled: core/data/LatentData.cpp). Shared by
scripts/bench-images-torch.py and scripts/bench-images-sklearn.py."""
import gzip
import os

import numpy as np

DEFAULT_DIR = "/usr/share/datasets/fashion-mnist"


def fashion_dir():
    return os.environ.get("FAEXPLORER_FASHION_MNIST", DEFAULT_DIR)


def read_idx_images(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    if int.from_bytes(raw[0:4], "big") != 0x00000803:
        raise ValueError(f"{path}: not an IDX file of unsigned bytes in 3 dimensions")
    n, rows, cols = (int.from_bytes(raw[4 * i:4 * i + 4], "big") for i in (1, 2, 3))
    return np.frombuffer(raw, dtype=np.uint8, offset=16).reshape(n, rows * cols)


def load(test_rows=10000, fit_rows=60000, dtype=np.float64):
    """The rows of `faexplorer-cli ... --dataset fashion-mnist --samples fit_rows + test_rows
    --test-fraction test_rows / (fit_rows + test_rows)`: the first fit_rows + test_rows images of
    the training file then the test file, the last test_rows held out. Returns (fit N x D,
    held-out, kept pixel indices), D the pixels that vary in the fitting rows."""
    d = fashion_dir()
    rows = read_idx_images(os.path.join(d, "train-images-idx3-ubyte.gz"))
    if fit_rows + test_rows > rows.shape[0]:
        test = read_idx_images(os.path.join(d, "t10k-images-idx3-ubyte.gz"))
        rows = np.concatenate([rows, test])
    rows = rows[:fit_rows + test_rows]
    fit, held = rows[:fit_rows], rows[fit_rows:]
    keep = np.flatnonzero(fit.max(axis=0) > fit.min(axis=0))
    scale = lambda a: (a[:, keep].astype(np.float64) / 255.0).astype(dtype)
    return scale(fit), scale(held), keep


def cli_split(fit_rows, test_rows):
    """The CLI options that select the same rows (pictures are split in the files' order)."""
    total = fit_rows + test_rows
    return ["--dataset", "fashion-mnist", "--samples", str(total), "--test-fraction",
            repr(test_rows / total)]
