package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

/**
 * What the JDK's {@link ProcessHandle} does not tell about a server's processes, read
 * from {@code /proc} where the operating system has it (Linux): whether a process is a
 * zombie, which processes belong to a process group, and how to start a command as the
 * leader of its own session and process group.
 *
 * <p>
 * A zombie has exited and runs nothing; it only waits for its parent to reap it. When the
 * application is PID 1 of a container without an init process, orphaned grandchildren of
 * a server are re-parented to it and never reaped: they must count as gone.
 */
final class ProcessTree {

	private static final Path PROC = Path.of("/proc");

	private static final @Nullable String SETSID = findSetsid();

	private ProcessTree() {
	}

	/**
	 * Returns whether the process still runs: alive and not a zombie.
	 * @param process the process
	 * @return whether it runs
	 */
	static boolean isRunning(ProcessHandle process) {
		if (!process.isAlive()) {
			return false;
		}
		Stat stat = stat(process.pid());
		return stat == null || !stat.isZombie();
	}

	/**
	 * Returns the running processes of a process group.
	 * @param processGroup the id of the group
	 * @return its running members; empty where the operating system does not tell
	 */
	static List<ProcessHandle> group(long processGroup) {
		List<ProcessHandle> members = new ArrayList<>();
		if (!Files.isDirectory(PROC)) {
			return members;
		}
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
			for (Path entry : entries) {
				long pid = Long.parseLong(entry.getFileName().toString());
				Stat stat = stat(pid);
				if (stat != null && stat.processGroup() == processGroup && !stat.isZombie()) {
					ProcessHandle.of(pid).ifPresent(members::add);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// /proc changes while it is read: what was read is the answer
		}
		return members;
	}

	/**
	 * Returns the session a process belongs to.
	 * @param pid the process
	 * @return the id of its session; empty where the operating system does not tell
	 */
	static OptionalLong session(long pid) {
		Stat stat = stat(pid);
		return (stat != null) ? OptionalLong.of(stat.session()) : OptionalLong.empty();
	}

	/**
	 * Returns the command line that starts a command as the leader of a new session and
	 * process group (with {@code setsid}), so that every process it starts can be found
	 * and signalled as its group, even after re-parenting. The command line is returned
	 * unchanged where that is not possible, or where the command cannot be found (the JDK
	 * then reports it as it always does).
	 * @param commandLine the command and its arguments
	 * @param workingDirectory the directory the command runs in, or {@code null}
	 * @return the command line to start, and whether it leads its own group
	 */
	static Launch launch(List<String> commandLine, @Nullable Path workingDirectory) {
		String command = commandLine.get(0);
		String setsid = SETSID;
		if (setsid == null || resolve(command, workingDirectory).isEmpty()) {
			return new Launch(commandLine, false);
		}
		List<String> wrapped = new ArrayList<>(commandLine.size() + 1);
		wrapped.add(setsid);
		wrapped.add(resolve(command, workingDirectory).get());
		wrapped.addAll(commandLine.subList(1, commandLine.size()));
		return new Launch(wrapped, true);
	}

	/**
	 * Returns the executable the JDK would run: a path as given, a bare name from the
	 * application's {@code PATH}.
	 * @param command the command
	 * @param workingDirectory the directory it runs in, or {@code null}
	 * @return the executable, or empty if there is none that can be run
	 */
	static Optional<String> resolve(String command, @Nullable Path workingDirectory) {
		if (command.contains(File.separator)) {
			Path path = (workingDirectory != null) ? workingDirectory.resolve(command) : Path.of(command);
			return (Files.isRegularFile(path) && Files.isExecutable(path)) ? Optional.of(command) : Optional.empty();
		}
		String searchPath = System.getenv("PATH");
		if (searchPath == null) {
			return Optional.empty();
		}
		for (String directory : searchPath.split(File.pathSeparator)) {
			if (directory.isEmpty()) {
				continue;
			}
			Path candidate = Path.of(directory, command);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return Optional.of(candidate.toAbsolutePath().toString());
			}
		}
		return Optional.empty();
	}

	private static @Nullable String findSetsid() {
		if (!Files.isDirectory(PROC)) {
			return null;
		}
		for (String candidate : List.of("/usr/bin/setsid", "/bin/setsid", "/usr/sbin/setsid", "/sbin/setsid")) {
			Path path = Path.of(candidate);
			if (Files.isRegularFile(path) && Files.isExecutable(path)) {
				return candidate;
			}
		}
		return null;
	}

	private static @Nullable Stat stat(long pid) {
		try {
			String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"),
					StandardCharsets.ISO_8859_1);
			// pid (comm) state ppid pgrp session ...; comm may hold spaces and ')'
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return new Stat(fields[0].charAt(0), Long.parseLong(fields[2]), Long.parseLong(fields[3]));
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * A command line to start and whether the process it starts leads its own process
	 * group.
	 *
	 * @param commandLine the command line
	 * @param ownGroup whether the started process leads its own process group
	 */
	record Launch(List<String> commandLine, boolean ownGroup) {

	}

	private record Stat(char state, long processGroup, long session) {

		boolean isZombie() {
			return this.state == 'Z' || this.state == 'X';
		}

	}

}
