package io.github.mcpsupervisor.architecture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests that Spring can read every auto-configuration of the starter (its methods, as
 * bean definitions and conditions are deduced from them) in an application without the
 * optional dependencies: Spring's JDBC support, Boot's, and Spring Integration. A type of
 * theirs in a method of a class that is always read (a parameter, a catch clause) fails
 * every such application at its start.
 */
class OptionalDependenciesTests {

	private static final List<String> HIDDEN = List.of("org.springframework.jdbc.", "org.springframework.boot.jdbc.",
			"org.springframework.boot.sql.", "org.springframework.integration.");

	@Test
	void everyAutoConfigurationIsReadWithoutTheOptionalDependencies() throws IOException {
		List<String> read = new ArrayList<>();
		for (String name : alwaysRead()) {
			ClassLoader hiding = new HidingClassLoader(getClass().getClassLoader());
			assertThatNoException().as(name).isThrownBy(() -> {
				Class<?> type = Class.forName(name, false, hiding);
				type.getDeclaredMethods();
				type.getDeclaredConstructors();
			});
			read.add(name);
		}
		assertThat(read).contains(
				"io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationAutoConfiguration",
				"io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationStoreConfiguration");
	}

	// the auto-configurations, and what they import whatever the class path
	private static List<String> alwaysRead() throws IOException {
		List<String> names = new ArrayList<>();
		try (InputStream imports = OptionalDependenciesTests.class.getClassLoader()
			.getResourceAsStream("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
			for (String line : new String(imports.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
				if (!line.isBlank() && !line.startsWith("#")) {
					names.add(line.trim());
				}
			}
		}
		names.add("io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationStoreConfiguration");
		return names;
	}

	/**
	 * Defines the starter's classes itself, and finds none of the optional dependencies.
	 */
	static final class HidingClassLoader extends ClassLoader {

		HidingClassLoader(ClassLoader parent) {
			super(parent);
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			synchronized (getClassLoadingLock(name)) {
				if (HIDDEN.stream().anyMatch(name::startsWith)) {
					throw new ClassNotFoundException(name);
				}
				if (!name.startsWith("io.github.mcpsupervisor.")) {
					return super.loadClass(name, resolve);
				}
				Class<?> loaded = findLoadedClass(name);
				if (loaded != null) {
					return loaded;
				}
				try (InputStream bytes = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
					if (bytes == null) {
						throw new ClassNotFoundException(name);
					}
					byte[] code = bytes.readAllBytes();
					return defineClass(name, code, 0, code.length);
				}
				catch (IOException ex) {
					throw new ClassNotFoundException(name, ex);
				}
			}
		}

	}

}
