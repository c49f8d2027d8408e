"""Fashion-MNIST as faexplorer-cli reads it (issue 29; core/io/ImageSets.cpp, core/data/ImageData.h,
docs/maths/images.md): the 60,000 training images then the 10,000 test images of Debian's
dataset-fashion-mnist, each pixel v / 255 dequantised to (v + u - 1/2) / 255 with u ~ U[0, 1), never
z-scored, all 784 pixels kept, the last rows held out (pictures are split in the files' order, not
shuffled). The CLI draws u from its own xoshiro256++ stream under each trial's split seed; here u
comes from numpy under `seed`: the same law, not the same draws. Shared by
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


def read(test_rows=10000, fit_rows=60000):
    """The whole numbers 0..255 of the rows of `faexplorer-cli ... --dataset fashion-mnist
    --samples fit_rows + test_rows --test-fraction test_rows / (fit_rows + test_rows)`: the first
    fit_rows + test_rows images of the training file then the test file."""
    d = fashion_dir()
    rows = read_idx_images(os.path.join(d, "train-images-idx3-ubyte.gz"))
    if fit_rows + test_rows > rows.shape[0]:
        test = read_idx_images(os.path.join(d, "t10k-images-idx3-ubyte.gz"))
        rows = np.concatenate([rows, test])
    return rows[:fit_rows + test_rows]


def dequantise(rows, test_rows, seed, dtype=np.float64):
    """(fitting rows N x 784, the last test_rows held out), dequantised with numpy's draws under
    `seed`."""
    jitter = np.random.default_rng(seed).random(rows.shape) - 0.5
    x = ((rows.astype(np.float64) + jitter) / 255.0).astype(dtype)
    return x[:rows.shape[0] - test_rows], x[rows.shape[0] - test_rows:]


def cli_split(fit_rows, test_rows):
    """The CLI options that select the same rows (pictures are split in the files' order)."""
    total = fit_rows + test_rows
    return ["--dataset", "fashion-mnist", "--samples", str(total), "--test-fraction",
            repr(test_rows / total)]


def emit(writer, file, row, message):
    """One CSV row written and flushed (a long run keeps what it has), and its line printed."""
    writer.writerow(row)
    file.flush()
    print(message, flush=True)
