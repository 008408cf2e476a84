// Prints the quartiles Weka 3.6's InterquartileRange filter really uses, for the DUNE quartile tests.
// Build and run (Debian's weka package):
//   javac -cp /usr/share/java/weka.jar -d /tmp/wekaprobe bench/weka/IqrProbe.java
//   java -cp /usr/share/java/weka.jar:/tmp/wekaprobe IqrProbe 448 453 450 457 430 270
// Arguments are the values ("?" = missing). With the outlier factor set to 0 the filter's lower and upper
// outlier thresholds are Q1 and Q3 exactly (threshold = Q1 - 0 * IQR); read from its protected fields.
import java.lang.reflect.Field;
import java.util.ArrayList;
import weka.core.Attribute;
import weka.core.FastVector;
import weka.core.Instance;
import weka.core.Instances;
import weka.filters.Filter;
import weka.filters.unsupervised.attribute.InterquartileRange;

public class IqrProbe {
  static double first(InterquartileRange f, String name) throws Exception {
    Field field = InterquartileRange.class.getDeclaredField(name);
    field.setAccessible(true);
    return ((double[]) field.get(f))[0];
  }

  static Instances data(String[] args) {
    FastVector attrs = new FastVector();
    attrs.addElement(new Attribute("x"));
    Instances d = new Instances("probe", attrs, args.length);
    for (String a : args) {
      Instance inst = new Instance(1);
      inst.setDataset(d);
      if (a.equals("?")) inst.setMissing(0); else inst.setValue(0, Double.parseDouble(a));
      d.add(inst);
    }
    return d;
  }

  public static void main(String[] args) throws Exception {
    InterquartileRange zero = new InterquartileRange();
    zero.setAttributeIndices("first");
    zero.setOutlierFactor(0);
    zero.setExtremeValuesFactor(0); // prints a harmless "must be greater" warning
    zero.setInputFormat(data(args));
    Filter.useFilter(data(args), zero);
    double q1 = first(zero, "m_LowerOutlier"), q3 = first(zero, "m_UpperOutlier");
    // Weka 3.6's own defaults are OF = 3, EF = 6 (printed below); the paper and iqrFlags use OF = 1.5, EF = 3.
    InterquartileRange std = new InterquartileRange();
    String defaults = "wekaDefaults=" + std.getOutlierFactor() + "/" + std.getExtremeValuesFactor();
    std.setAttributeIndices("first");
    std.setOutlierFactor(1.5);
    std.setExtremeValuesFactor(3);
    std.setInputFormat(data(args));
    Instances out = Filter.useFilter(data(args), std);
    // Weka's Outlier attribute excludes extreme values (they get ExtremeValue=yes instead).
    StringBuilder flags = new StringBuilder(), extreme = new StringBuilder();
    for (int i = 0; i < out.numInstances(); i++) {
      if (i > 0) { flags.append(","); extreme.append(","); }
      flags.append(out.instance(i).stringValue(out.numAttributes() - 2));
      extreme.append(out.instance(i).stringValue(out.numAttributes() - 1));
    }
    System.out.println("q1=" + q1 + " q3=" + q3 + " median=" + first(std, "m_Median") + " outlier=" + flags + " extreme=" + extreme + " " + defaults);
  }
}
