package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The environment a stdio server starts with: not the application's, which holds its
 * credentials, but the few variables a process needs to run (those the MCP TypeScript SDK
 * passes by default, plus the temporary directory and the locale), the ones the server's
 * {@code inherit-env} names, and the server's own {@code env}, which wins.
 *
 * <p>
 * An inherited value that starts with {@code ()} is an exported shell function (as the
 * TypeScript SDK, for the risk they carry): it is never inherited, only set in the
 * server's {@code env}.
 */
final class ServerEnvironment {

	/**
	 * What a process needs on POSIX systems: the TypeScript SDK's
	 * {@code DEFAULT_INHERITED_ENV_VARS}, the temporary directory, and the locale that
	 * decides the character set of what a server reads and writes.
	 */
	static final List<String> POSIX = List.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG",
			"LC_*");

	/**
	 * What a process needs on Windows: the TypeScript SDK's
	 * {@code DEFAULT_INHERITED_ENV_VARS}, and what command scripts such as
	 * {@code npx.cmd} need to run.
	 */
	static final List<String> WINDOWS = List.of("APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH",
			"PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES",
			"TMP", "COMSPEC", "PATHEXT");

	private static final boolean ON_WINDOWS = System.getProperty("os.name", "")
		.toLowerCase(Locale.ROOT)
		.startsWith("windows");

	private ServerEnvironment() {
	}

	/**
	 * Returns the environment of a server started by this JVM.
	 * @param inherit more variables to inherit, by name or pattern
	 * @param own the server's own variables
	 * @return the environment
	 */
	static Map<String, String> of(List<String> inherit, Map<String, String> own) {
		return of(System.getenv(), ON_WINDOWS, inherit, own);
	}

	/**
	 * Returns the environment of a server.
	 * @param parent the application's environment
	 * @param windows whether names are matched as Windows does, ignoring case
	 * @param inherit more variables to inherit: names, patterns in which {@code *} stands
	 * for any characters, {@code *} for all
	 * @param own the server's own variables
	 * @return the environment
	 */
	static Map<String, String> of(Map<String, String> parent, boolean windows, List<String> inherit,
			Map<String, String> own) {
		List<Pattern> patterns = new ArrayList<>();
		for (String name : windows ? WINDOWS : POSIX) {
			patterns.add(pattern(name, windows));
		}
		for (String name : inherit) {
			patterns.add(pattern(name, windows));
		}
		Map<String, String> environment = new LinkedHashMap<>();
		parent.forEach((name, value) -> {
			if (!value.startsWith("()") && patterns.stream().anyMatch((pattern) -> pattern.matcher(name).matches())) {
				environment.put(name, value);
			}
		});
		own.forEach((name, value) -> {
			if (windows) {
				environment.keySet().removeIf(name::equalsIgnoreCase);
			}
			environment.put(name, value);
		});
		return environment;
	}

	private static Pattern pattern(String glob, boolean windows) {
		String regex = Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
		return Pattern.compile(regex, windows ? Pattern.CASE_INSENSITIVE : 0);
	}

}
