/**
 * Readers of labelled training data from files: LibSVM (sparse rows, 1-based indices; a file listing every
 * index is the dense case) and CSV (dense, optional header, one label column). A malformed file fails with a
 * {@link org.dpstream.core.data.MalformedDataException} that names the file and the 1-based line number:
 * unknown tokens, NaN or infinite values, ragged rows, bad or unsorted indices.
 *
 * <p>The readers only parse. They never derive anything from the data that a private algorithm would
 * treat as public (feature bounds, scales): those must be declared by the caller.
 */
package org.dpstream.core.data;
