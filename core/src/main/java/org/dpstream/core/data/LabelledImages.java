package org.dpstream.core.data;

/**
 * Grey-scale images with class labels, as read from an IDX pair: images [n, rows, columns] and labels
 * [n] with values in [0, classes).
 */
public final class LabelledImages {

  private final IdxArray images;
  private final IdxArray labels;
  private final int classes;

  /**
   * @throws IllegalArgumentException if the shapes do not match: images must be [n, rows, columns]
   *     and labels [n]
   */
  public LabelledImages(IdxArray images, IdxArray labels) {
    if (images.rank() != 3 || labels.rank() != 1 || images.size(0) != labels.size(0) || images.size(0) == 0) {
      throw new IllegalArgumentException("need images [n, rows, columns] and labels [n] with n > 0, got "
          + java.util.Arrays.toString(images.dimensions()) + " and " + java.util.Arrays.toString(labels.dimensions()));
    }
    int largest = 0;
    for (int i = 0; i < labels.length(); i++) {
      largest = Math.max(largest, labels.valueAt(i));
    }
    this.images = images;
    this.labels = labels;
    this.classes = largest + 1;
  }

  public int count() {
    return images.size(0);
  }

  public int rows() {
    return images.size(1);
  }

  public int columns() {
    return images.size(2);
  }

  /** One more than the largest label. */
  public int classes() {
    return classes;
  }

  public int label(int image) {
    return labels.valueAt(image);
  }

  /** The pixel in [0, 255]. */
  public int pixel(int image, int row, int column) {
    return images.valueAt((image * rows() + row) * columns() + column);
  }
}
