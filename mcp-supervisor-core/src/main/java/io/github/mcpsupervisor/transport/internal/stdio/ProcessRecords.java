package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import io.github.mcpsupervisor.internal.KeptFiles;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The stdio server processes an application runs, recorded in a runtime directory so that
 * a later start of the same application terminates those that outlived it (a JVM killed
 * with SIGKILL runs no shutdown hook, and servers started under {@code setsid} survive
 * it). A record names the server's process (pid, process group, start time, command line)
 * and the JVM that started it (pid and start time). Only the records of a JVM that no
 * longer runs are acted on, so applications that share the directory never kill each
 * other's servers; and a process is only killed while it is verifiably the recorded one
 * or one it started: same pid and start time, or, for a server that led its own session
 * and process group, a member of that group and session that started after it.
 *
 * @since 0.1.0
 */
public final class ProcessRecords {

	private static final Log logger = LogFactory.getLog(ProcessRecords.class);

	private static final String SUFFIX = ".process";

	private static final ProcessRecords NONE = new ProcessRecords(null, null);

	private static final Duration SWEEP_BOUND = Duration.ofSeconds(5);

	private final @Nullable Path directory;

	// The user this JVM runs as: the owner of a file it created in the directory.
	private final @Nullable UserPrincipal user;

	private final ProcessHandle owner = ProcessHandle.current();

	private ProcessRecords(@Nullable Path directory, @Nullable UserPrincipal user) {
		this.directory = directory;
		this.user = user;
	}

	/**
	 * Returns records that are kept nowhere.
	 * @return the records
	 */
	public static ProcessRecords none() {
		return NONE;
	}

	/**
	 * Opens the records of a runtime directory, creating it, and terminates the servers
	 * of earlier runs that still live before anything is spawned. The directories it
	 * creates are private to the user (mode {@code 700}); an existing runtime directory
	 * is used, unchanged, only if it is a directory (not a link) of this user that no
	 * other user may write to, in a directory only this user or root owns, and sticky if
	 * others may write to it. Otherwise nothing is recorded, with a warning.
	 * @param directory the runtime directory
	 * @return the records
	 */
	public static ProcessRecords open(Path directory) {
		try {
			UserPrincipal user = RuntimeDirectory.prepare(directory);
			ProcessRecords records = new ProcessRecords(directory, user);
			records.sweep();
			return records;
		}
		catch (RuntimeDirectory.UnsafeException ex) {
			logger.warn("MCP runtime directory " + directory + " is not used, and the processes of servers are "
					+ "not recorded: " + ex.getMessage());
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("MCP runtime directory " + directory + " cannot be used; the processes of servers are not "
					+ "recorded: " + ex.getMessage());
		}
		return NONE;
	}

	/**
	 * Returns the default runtime directory of an application: one per user, application
	 * name and working directory under the temporary directory.
	 * @param applicationName the application's name
	 * @return the directory
	 */
	public static Path defaultDirectory(String applicationName) {
		String workingDirectory = System.getProperty("user.dir", "");
		String key = applicationName.replaceAll("[^A-Za-z0-9_.-]", "_") + "-"
				+ Integer.toHexString(workingDirectory.hashCode());
		return Path.of(System.getProperty("java.io.tmpdir"), "mcp-supervisor-" + System.getProperty("user.name", ""),
				key);
	}

	/**
	 * Returns the runtime directory the records are kept in, checked private to the user
	 * of this JVM: what else the application keeps for its next start goes there too.
	 * @return the directory, or {@code null} when nothing is recorded
	 */
	public @Nullable Path directory() {
		return this.directory;
	}

	// Records a server process just started; the record ends with remove.
	void add(Process process, boolean ownGroup, List<String> commandLine) {
		Path file = file(process.pid());
		if (file == null) {
			return;
		}
		Properties record = new Properties();
		record.setProperty("pid", Long.toString(process.pid()));
		record.setProperty("group", Boolean.toString(ownGroup));
		record.setProperty("start", startOf(process.toHandle()).map(Instant::toString).orElse(""));
		record.setProperty("command", String.join(" ", ConfigurationSanitizer.maskCommandLine(commandLine)));
		record.setProperty("owner.pid", Long.toString(this.owner.pid()));
		record.setProperty("owner.start", startOf(this.owner).map(Instant::toString).orElse(""));
		try {
			KeptFiles.replace(file, "record", KeptFiles.content(record, "an MCP server process of the JVM owner.pid"));
		}
		catch (IOException ex) {
			logger.warn("MCP server process " + process.pid() + " cannot be recorded in " + this.directory + ": "
					+ ex.getMessage());
		}
	}

	// Once its whole tree is confirmed gone.
	void remove(long pid) {
		Path file = file(pid);
		if (file != null) {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ex) {
				logger.debug("cannot remove " + file, ex);
			}
		}
	}

	private @Nullable Path file(long pid) {
		return (this.directory != null) ? this.directory.resolve(pid + "-" + this.owner.pid() + SUFFIX) : null;
	}

	private void sweep() throws IOException {
		List<Path> files = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.directory, "*" + SUFFIX)) {
			entries.forEach(files::add);
		}
		for (Path file : files) {
			if (!isOwn(file)) {
				// only a record this user wrote may make this JVM kill a process
				logger.warn("MCP runtime directory: ignoring " + file + ", which another user owns");
				continue;
			}
			Properties record = new Properties();
			try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
				record.load(reader);
				if (ownerRuns(record)) {
					continue;
				}
				if (terminate(record, ProcessTable.SYSTEM)) {
					Files.deleteIfExists(file);
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.warn("MCP runtime directory: the record " + file + " cannot be read: " + ex.getMessage());
			}
		}
	}

	private boolean isOwn(Path file) {
		try {
			return Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).equals(this.user);
		}
		catch (IOException | UnsupportedOperationException ex) {
			return false;
		}
	}

	// The JVM that wrote the record, if it still runs, owns its processes.
	private static boolean ownerRuns(Properties record) {
		long pid = Long.parseLong(record.getProperty("owner.pid"));
		String start = record.getProperty("owner.start", "");
		return ProcessHandle.of(pid)
			.filter(ProcessHandle::isAlive)
			.map((handle) -> startOf(handle).map(Instant::toString).orElse("").equals(start))
			.orElse(false);
	}

	// Kills what is left of a recorded server; true once nothing of it runs.
	static boolean terminate(Properties record, ProcessTable table) {
		long pid = Long.parseLong(record.getProperty("pid"));
		boolean group = Boolean.parseBoolean(record.getProperty("group"));
		String recorded = record.getProperty("start", "");
		if (recorded.isEmpty()) {
			// nothing tells the recorded process from one that reuses its pid
			return true;
		}
		Instant start = Instant.parse(recorded);
		Optional<RunningProcess> leader = table.process(pid);
		if (leader.isPresent() && !start.equals(leader.get().start())) {
			// the pid was reused by another process: the recorded one is gone, and a
			// group or session with that id is not the recorded one
			return true;
		}
		List<Long> left = left(pid, group, start, table);
		if (left.isEmpty()) {
			return true;
		}
		logger.warn("MCP server process " + pid + " (" + record.getProperty("command")
				+ ") of an earlier run of this application is still running with " + left.size()
				+ " process(es) in its group: terminating it");
		long deadline = System.nanoTime() + SWEEP_BOUND.toNanos();
		while (!left.isEmpty() && System.nanoTime() < deadline) {
			left.forEach(table::kill);
			left = left(pid, group, start, table);
			if (left.isEmpty()) {
				break;
			}
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		if (!left.isEmpty()) {
			logger.warn("MCP server process " + pid + " of an earlier run could not be confirmed gone");
		}
		return left.isEmpty();
	}

	// What runs of a recorded server: the process itself while its start time matches
	// and, if it led its own session and group (setsid), the members of its group that
	// are in its session and started after it. A group id alone proves nothing once the
	// leader is gone: it may be an unrelated job's whose leader got the recycled pid.
	private static List<Long> left(long pid, boolean group, Instant start, ProcessTable table) {
		List<Long> left = new ArrayList<>();
		table.process(pid).filter((leader) -> start.equals(leader.start())).ifPresent((leader) -> left.add(pid));
		if (group) {
			for (RunningProcess member : table.group(pid)) {
				Instant memberStart = member.start();
				if (member.pid() != pid && member.session() == pid && memberStart != null
						&& !memberStart.isBefore(start)) {
					left.add(member.pid());
				}
			}
		}
		return left;
	}

	private static Optional<Instant> startOf(ProcessHandle handle) {
		return handle.info().startInstant();
	}

	/**
	 * The running processes, as far as a sweep needs to know them.
	 */
	interface ProcessTable {

		/** The processes of the operating system. */
		ProcessTable SYSTEM = new ProcessTable() {

			@Override
			public Optional<RunningProcess> process(long pid) {
				return ProcessHandle.of(pid).filter(ProcessTree::isRunning).flatMap(ProcessTable::describe);
			}

			@Override
			public List<RunningProcess> group(long processGroup) {
				List<RunningProcess> members = new ArrayList<>();
				ProcessTree.group(processGroup).forEach((member) -> describe(member).ifPresent(members::add));
				return members;
			}

			@Override
			public void kill(long pid) {
				ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
			}

		};

		/**
		 * Returns a process that runs.
		 * @param pid its id
		 * @return the process, or empty if none with that id runs
		 */
		Optional<RunningProcess> process(long pid);

		/**
		 * Returns the running members of a process group.
		 * @param processGroup the id of the group
		 * @return its members
		 */
		List<RunningProcess> group(long processGroup);

		/**
		 * Kills a process with SIGKILL.
		 * @param pid its id
		 */
		void kill(long pid);

		private static Optional<RunningProcess> describe(ProcessHandle process) {
			long session = ProcessTree.session(process.pid()).orElse(-1);
			return Optional.of(new RunningProcess(process.pid(), session, startOf(process).orElse(null)));
		}

	}

	/**
	 * A running process.
	 *
	 * @param pid its id
	 * @param session the id of its session, or -1 if the operating system does not tell
	 * @param start when it started, or {@code null} if the operating system does not tell
	 */
	record RunningProcess(long pid, long session, @Nullable Instant start) {

	}

}
