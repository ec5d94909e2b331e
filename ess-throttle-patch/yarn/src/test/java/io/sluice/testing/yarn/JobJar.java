package io.sluice.testing.yarn;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A Spark application jar built at test time: the job's source is a test resource compiled with the
 * JDK's compiler against the distribution's own jars, so the test JVM (which hosts Hadoop 3.4)
 * never has Spark core on its classpath.
 */
public final class JobJar {
  /**
   * The bundled shuffle job: {@code ShuffleJob ROWS KEYS PARTITIONS [fail-first-attempt | WAIT_FILE
   * [WAIT_SECONDS]]}, fails its application on a wrong answer and prints {@code SLUICE_YARN_JOB
   * attempt=… keys=… total=…}.
   */
  public static final String SHUFFLE_JOB = "io.sluice.testing.yarn.jobs.ShuffleJob";

  private final Path jar;
  private final String mainClass;

  private JobJar(Path jar, String mainClass) {
    this.jar = jar;
    this.mainClass = mainClass;
  }

  public Path jar() {
    return jar;
  }

  public String mainClass() {
    return mainClass;
  }

  /** Compiles the bundled {@link #SHUFFLE_JOB} into {@code workDir/ShuffleJob.jar}. */
  public static JobJar shuffleJob(SparkDist spark, Path workDir) throws IOException {
    return compile(spark, workDir, "sluice-yarn-jobs/ShuffleJob.java", SHUFFLE_JOB);
  }

  /**
   * Compiles one Java source (a classpath resource) against {@code spark}'s jars into {@code
   * workDir/<simple name>.jar}.
   */
  public static JobJar compile(
      SparkDist spark, Path workDir, String sourceResource, String mainClass) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException(
          "no Java compiler in this runtime (a JDK is required): "
              + System.getProperty("java.home"));
    }
    String simpleName = mainClass.substring(mainClass.lastIndexOf('.') + 1);
    Path src = workDir.resolve("job-src").resolve(mainClass.replace('.', '/') + ".java");
    Path classes = workDir.resolve("job-classes-" + simpleName);
    Files.createDirectories(src.getParent());
    Files.createDirectories(classes);
    try (InputStream in = JobJar.class.getClassLoader().getResourceAsStream(sourceResource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + sourceResource);
      }
      Files.write(src, in.readAllBytes());
    }
    String classpath;
    try (Stream<Path> jars = Files.list(spark.jars())) {
      // the compiler API does not expand "dir/*" (only the java launcher does)
      classpath =
          jars.map(Path::toString)
              .filter(n -> n.endsWith(".jar"))
              .sorted()
              .collect(Collectors.joining(File.pathSeparator));
    }
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "--release",
            "17",
            "-nowarn",
            "-cp",
            classpath,
            "-d",
            classes.toString(),
            src.toString());
    if (rc != 0) {
      throw new IllegalStateException(
          "compiling "
              + sourceResource
              + " failed:\n"
              + diagnostics.toString(StandardCharsets.UTF_8));
    }
    Path jar = workDir.resolve(simpleName + ".jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(f));
        out.closeEntry();
      }
    }
    return new JobJar(jar, mainClass);
  }
}
