package io.github.mcpsupervisor.transport.internal;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that the connectors serve 2025-11-25 servers with an MCP Java SDK that has no
 * 2026-07-28 client (Spring AI's own, 2.0.0): a revision's SDK glue is loaded only for a
 * server that speaks it.
 */
class WithoutThe2026SdkTests {

	private static final Duration SECOND = Duration.ofSeconds(1);

	private final ClassLoader previous = Thread.currentThread().getContextClassLoader();

	private final URLClassLoader loader = withoutThe2026Sdk();

	@AfterEach
	void restore() throws IOException {
		Thread.currentThread().setContextClassLoader(this.previous);
		this.loader.close();
	}

	@Test
	void aStdioServerOf2025GetsItsGenerations() throws Exception {
		assertThat(stdioGeneration("2025-11-25")).isNotNull();
	}

	@Test
	void anHttpServerOf2025GetsItsGenerations() throws Exception {
		Class<?> definitionType = load("io.github.mcpsupervisor.transport.StreamableHttpServerDefinition");
		Object definition = definitionType
			.getConstructor(String.class, URI.class, Map.class, Duration.class, Duration.class)
			.newInstance("h", URI.create("http://127.0.0.1:1/mcp"), Map.of(), SECOND, SECOND);
		Class<?> connectorType = load("io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector");
		try (AutoCloseable connector = (AutoCloseable) connectorType.getConstructor(definitionType)
			.newInstance(definition)) {
			assertThat(connectorType.getMethod("create", int.class, Runnable.class).invoke(connector, 1, NOTHING))
				.isNotNull();
		}
	}

	@Test
	void aStdioServerOf2026NeedsThe2026Sdk() {
		assertThatExceptionOfType(ReflectiveOperationException.class).isThrownBy(() -> stdioGeneration("2026-07-28"))
			.havingRootCause()
			.isInstanceOf(ClassNotFoundException.class)
			.withMessageStartingWith("io.modelcontextprotocol.modern.");
	}

	private static final Runnable NOTHING = () -> {
	};

	private Object stdioGeneration(String revision) throws Exception {
		Class<?> definitionType = load("io.github.mcpsupervisor.transport.StdioServerDefinition");
		Object definition = definitionType
			.getConstructor(String.class, String.class, List.class, Map.class, Path.class, Duration.class,
					Duration.class, Duration.class)
			.newInstance("s", "sh", List.of(), Map.of(), null, SECOND, SECOND, SECOND);
		Class<?> connectorType = load("io.github.mcpsupervisor.transport.internal.stdio.StdioConnector");
		Object connector = connectorType.getConstructor(definitionType, Executor.class, String.class)
			.newInstance(definition, (Executor) Runnable::run, revision);
		return connectorType.getMethod("create", int.class, Runnable.class).invoke(connector, 1, NOTHING);
	}

	private Class<?> load(String name) throws ClassNotFoundException {
		// the SDK finds its JSON mapper through the context class loader
		Thread.currentThread().setContextClassLoader(this.loader);
		return this.loader.loadClass(name);
	}

	// The test's class path, without the SDK's 2026-07-28 packages.
	private static URLClassLoader withoutThe2026Sdk() {
		return new URLClassLoader(classPath().toArray(new URL[0]), ClassLoader.getPlatformClassLoader()) {

			@Override
			protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
				if (name.startsWith("io.modelcontextprotocol.modern.")) {
					throw new ClassNotFoundException(name);
				}
				return super.loadClass(name, resolve);
			}

		};
	}

	// Surefire may start the tests from a jar whose manifest names the class path.
	private static List<URL> classPath() {
		List<URL> urls = new ArrayList<>();
		try {
			for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
				Path path = Path.of(entry);
				urls.add(path.toUri().toURL());
				if (entry.endsWith(".jar")) {
					try (InputStream in = path.toUri().toURL().openStream();
							JarInputStream jar = new JarInputStream(in)) {
						Manifest manifest = jar.getManifest();
						String named = (manifest != null) ? manifest.getMainAttributes().getValue("Class-Path") : null;
						if (named != null) {
							for (String url : named.trim().split("\\s+")) {
								urls.add(path.toUri().resolve(url).toURL());
							}
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		return urls;
	}

}
