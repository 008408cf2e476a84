// Times only weka.associations.Apriori.buildAssociations (Weka 3.6) on an ARFF file, for bench/dune.bench.ts.
//   javac -cp /usr/share/java/weka.jar -d /tmp/wekaprobe bench/weka/AprioriTimer.java
//   java -cp /usr/share/java/weka.jar:/tmp/wekaprobe AprioriTimer data.arff REPEATS -N 100000000 -C 0.9 -D 0.99 -U 1.0 -M 0.01
// Prints one line per repetition: "ms=<milliseconds> rules=<number of rules found>". The first is a JIT warm-up.
import java.util.Arrays;
import weka.associations.Apriori;
import weka.core.Instances;
import weka.core.converters.ConverterUtils.DataSource;

public class AprioriTimer {
  public static void main(String[] args) throws Exception {
    Instances data = DataSource.read(args[0]);
    int repeats = Integer.parseInt(args[1]);
    String[] options = Arrays.copyOfRange(args, 2, args.length);
    for (int i = 0; i < repeats; i++) {
      Apriori apriori = new Apriori();
      apriori.setOptions(options.clone());
      if (data.classIndex() < 0 && Arrays.asList(options).contains("-A")) data.setClassIndex(data.numAttributes() - 1);
      long t0 = System.nanoTime();
      apriori.buildAssociations(data);
      long t1 = System.nanoTime();
      System.out.println("ms=" + (t1 - t0) / 1e6 + " rules=" + apriori.getAllTheRules()[0].size());
    }
  }
}
