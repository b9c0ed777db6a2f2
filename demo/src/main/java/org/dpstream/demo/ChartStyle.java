package org.dpstream.demo;

import java.awt.Color;
import java.awt.Font;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;

/** The look the demo's PNGs share: white background, sans-serif fonts, the legend below the plot. */
final class ChartStyle {

  private ChartStyle() {}

  static void apply(XYStyler styler) {
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
    styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
    styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
    styler.setLegendPosition(Styler.LegendPosition.OutsideS);
  }
}
