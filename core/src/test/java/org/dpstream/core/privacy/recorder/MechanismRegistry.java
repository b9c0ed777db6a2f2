package org.dpstream.core.privacy.recorder;

import io.github.classgraph.ClassGraph;
import io.github.classgraph.ClassInfo;
import io.github.classgraph.ScanResult;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Finds, by classpath scanning (ClassGraph), every concrete implementation of the mechanism types under some packages,
 * and the mechanisms the {@link RecordedBy} tests on the classpath name; what is left is a mechanism without a
 * sensitivity recorder.
 */
public final class MechanismRegistry {

  private MechanismRegistry() {}

  /** The mechanisms found and the mechanisms some {@link RecordedBy} test names, by fully qualified name. */
  public record Scan(Set<String> mechanisms, Set<String> recorded) {

    /** The mechanisms no recorder names, sorted. */
    public List<String> unrecorded() {
      Set<String> left = new TreeSet<>(mechanisms);
      left.removeAll(recorded);
      return List.copyOf(left);
    }
  }

  /**
   * The fully qualified names of the concrete classes under {@code packages} (outside {@code excluded}) that
   * implement or extend one of {@code mechanismTypes} and are named by no {@link RecordedBy} test, sorted.
   */
  public static List<String> unrecorded(List<String> packages, List<String> excluded,
      List<Class<?>> mechanismTypes) {
    return scan(packages, excluded, mechanismTypes).unrecorded();
  }

  /** Scans {@code packages} (outside {@code excluded}) for the implementations of {@code mechanismTypes}. */
  public static Scan scan(List<String> packages, List<String> excluded, List<Class<?>> mechanismTypes) {
    try (ScanResult scan = new ClassGraph().enableClassInfo().enableAnnotationInfo().ignoreClassVisibility()
        .acceptPackages(packages.toArray(String[]::new)).rejectPackages(excluded.toArray(String[]::new)).scan()) {
      Set<String> mechanisms = new TreeSet<>();
      for (Class<?> type : mechanismTypes) {
        var implementations = type.isInterface()
            ? scan.getClassesImplementing(type.getName()) : scan.getSubclasses(type.getName());
        implementations.filter(info -> !info.isAbstract() && !info.isInterface() && !info.isAnonymousInnerClass())
            .forEach(info -> mechanisms.add(info.getName()));
      }
      Set<String> recorded = scan.getClassesWithAnnotation(RecordedBy.class.getName()).stream()
          .map(ClassInfo::loadClass)
          .map(test -> test.getAnnotation(RecordedBy.class))
          .flatMap(recorder -> java.util.stream.Stream.concat(
              Arrays.stream(recorder.value()).map(Class::getName), Arrays.stream(recorder.privateClasses())))
          .collect(Collectors.toSet());
      return new Scan(mechanisms, recorded);
    }
  }
}
