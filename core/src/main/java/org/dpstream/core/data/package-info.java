/**
 * Every reader of labelled data in the project: LibSVM (sparse rows, 1-based indices; a file listing every
 * index is the dense case), CSV (dense, optional header, one label column), and Fashion-MNIST's IDX files
 * ({@link org.dpstream.core.data.FashionMnist}; its binary tasks, {@link org.dpstream.core.data.FashionMnistBinary}),
 * with seeded train / held-out splits ({@link org.dpstream.core.data.DataSplits}). A malformed file fails with a
 * {@link org.dpstream.core.data.MalformedDataException} that names the file and the 1-based line number:
 * unknown tokens, NaN or infinite values, ragged rows, bad or unsorted indices.
 *
 * A missing Fashion-MNIST fails with a {@link org.dpstream.core.data.MissingDatasetException} that says how to
 * install it.
 *
 * <p>The readers only parse. They never derive anything from the data that a private algorithm would
 * treat as public (feature bounds, scales): those must be declared by the caller.
 */
package org.dpstream.core.data;
