package io.github.mcpsupervisor.e2e.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.postgresql.Driver;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.util.FileSystemUtils;

/**
 * A real, throwaway PostgreSQL server on a free loopback port: a new cluster in a
 * temporary directory named {@value #DIRECTORY_PREFIX}…, trust authentication, no
 * durability (no fsync), one database, no Unix-domain socket. The command lines of its
 * processes name that directory (the postmaster's {@code -D}, the others' cluster name),
 * so that a check for leftover processes finds them and no other PostgreSQL server.
 * <p>
 * Either started now and closed by the caller, {@code try (PostgreSqlServer postgres =
 * PostgreSqlServer.start()) {…}}, or a JUnit extension that starts it before the test
 * class and stops it after:
 * {@code @RegisterExtension static final PostgreSqlServer postgres = new PostgreSqlServer();}.
 * Closing stops it at once ({@code pg_ctl stop -m immediate}), waits until the postmaster
 * has exited and deletes the directory; a shutdown hook does the same when the JVM exits
 * without closing it (a JVM killed with SIGKILL leaves the server running).
 * <p>
 * It runs the machine's server binaries: those in the directory the system property
 * {@value #BIN_PROPERTY} or the environment variable {@value #BIN_VARIABLE} names, else
 * those of {@code pg_config --bindir}, else the newest under {@code /usr/lib/postgresql}.
 * PostgreSQL refuses to run as root: as root, it runs them as the user {@value #OS_USER}
 * with {@code runuser}. The server's log and the output of {@code initdb} and
 * {@code pg_ctl} go to {@code postgres.log} in its directory, whose tail a failure to
 * start reports.
 */
public final class PostgreSqlServer implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

	/** The system property naming the directory of the server binaries. */
	public static final String BIN_PROPERTY = "mcpsupervisor.test.postgresql-bin";

	/** The environment variable naming it, when the system property does not. */
	public static final String BIN_VARIABLE = "MCP_SUPERVISOR_POSTGRESQL_BIN";

	/** The prefix of the name of each server's temporary directory. */
	public static final String DIRECTORY_PREFIX = "mcp-supervisor-pg-";

	private static final String OS_USER = "postgres";

	private static final String USERNAME = "postgres";

	private static final String PASSWORD = "unchecked";

	private static final String DATABASE = "mcp_supervisor";

	private static final Path DEBIAN_BINARIES = Path.of("/usr/lib/postgresql");

	private static final Pattern VERSION = Pattern.compile("\\d+(\\.\\d+)*");

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);

	private static final int START_ATTEMPTS = 3;

	private static final String MISSING = "No PostgreSQL server binaries (initdb, pg_ctl, postgres) found: install"
			+ " them (Debian, Ubuntu: apt-get install postgresql), or name their directory with the system"
			+ " property " + BIN_PROPERTY + " or the environment variable " + BIN_VARIABLE;

	private @Nullable Path directory;

	private @Nullable Path bin;

	private @Nullable Thread shutdownHook;

	private @Nullable String startedFor;

	private int port;

	/**
	 * Creates a server that is not started: a JUnit extension starts it before the test
	 * class (see {@link #start()} to start one now).
	 */
	public PostgreSqlServer() {
	}

	/**
	 * Starts a server now; the caller closes it.
	 * @return the running server
	 */
	public static PostgreSqlServer start() {
		PostgreSqlServer server = new PostgreSqlServer();
		server.startServer();
		return server;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		// a nested class shares the server of its enclosing class, which stops it
		if (this.directory == null) {
			this.startedFor = context.getUniqueId();
			startServer();
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (context.getUniqueId().equals(this.startedFor)) {
			close();
		}
	}

	/**
	 * Returns the JDBC URL of its database.
	 * @return {@code jdbc:postgresql://127.0.0.1:<port>/<database>}
	 */
	public String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE;
	}

	/**
	 * Returns the user to connect as, the cluster's superuser.
	 * @return the user name
	 */
	public String username() {
		return USERNAME;
	}

	/**
	 * Returns a password to connect with: with trust authentication, any will do.
	 * @return the password
	 */
	public String password() {
		return PASSWORD;
	}

	/**
	 * Returns the port it listens on, on 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		running();
		return this.port;
	}

	/**
	 * Returns a data source of its database, a new connection each time.
	 * @return the data source
	 */
	public DataSource dataSource() {
		return new SimpleDriverDataSource(new Driver(), jdbcUrl(), username(), password());
	}

	/**
	 * Returns its data directory, deleted when it is closed.
	 * @return the data directory
	 */
	public Path dataDirectory() {
		return running().resolve("data");
	}

	/**
	 * Stops the server at once, waits until its postmaster has exited and deletes its
	 * directory; does nothing when it is not running.
	 */
	@Override
	public synchronized void close() {
		Path current = this.directory;
		if (current == null) {
			return;
		}
		Thread hook = this.shutdownHook;
		if (hook != null && hook != Thread.currentThread()) {
			try {
				Runtime.getRuntime().removeShutdownHook(hook);
			}
			catch (IllegalStateException ex) {
				// the JVM is exiting: the hook closes it
			}
		}
		Path binaries = this.bin;
		this.directory = null;
		this.bin = null;
		this.shutdownHook = null;
		this.startedFor = null;
		try {
			if (binaries != null) {
				stop(binaries, current);
			}
		}
		finally {
			delete(current);
		}
	}

	private synchronized void startServer() {
		if (this.directory != null) {
			throw new IllegalStateException("The PostgreSQL server is already running on port " + this.port);
		}
		Path binaries = binaries();
		Path created = createDirectory();
		this.directory = created;
		this.bin = binaries;
		Thread hook = new Thread(this::close, "postgresql-" + created.getFileName());
		this.shutdownHook = hook;
		Runtime.getRuntime().addShutdownHook(hook);
		try {
			initialize(binaries, created);
			this.port = startOnFreePort(binaries, created);
			createDatabase();
		}
		catch (RuntimeException ex) {
			try {
				close();
			}
			catch (RuntimeException stopFailure) {
				ex.addSuppressed(stopFailure);
			}
			throw ex;
		}
	}

	private Path running() {
		Path current = this.directory;
		if (current == null) {
			throw new IllegalStateException("The PostgreSQL server is not running: it starts before the test class"
					+ " when registered with @RegisterExtension, or with PostgreSqlServer.start()");
		}
		return current;
	}

	private static Path binaries() {
		String configured = System.getProperty(BIN_PROPERTY, System.getenv(BIN_VARIABLE));
		if (configured != null && !configured.isBlank()) {
			Path bin = Path.of(configured);
			if (!hasServer(bin)) {
				throw new IllegalStateException("No PostgreSQL server binaries (initdb, pg_ctl, postgres) in " + bin
						+ ", the directory that " + BIN_PROPERTY + " or " + BIN_VARIABLE + " names");
			}
			return bin;
		}
		return pgConfigBinaries().or(PostgreSqlServer::newestDebianBinaries)
			.orElseThrow(() -> new IllegalStateException(MISSING));
	}

	private static Optional<Path> pgConfigBinaries() {
		Process process;
		try {
			process = new ProcessBuilder("pg_config", "--bindir").redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
		}
		catch (IOException ex) {
			return Optional.empty(); // not on the PATH
		}
		try {
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0
					|| output.isEmpty()) {
				return Optional.empty();
			}
			// Debian's pg_config (libpq-dev) names a directory even without the server
			return Optional.of(Path.of(output)).filter(PostgreSqlServer::hasServer);
		}
		catch (IOException ex) {
			return Optional.empty();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running pg_config", ex);
		}
		finally {
			process.destroyForcibly();
		}
	}

	private static Optional<Path> newestDebianBinaries() {
		if (!Files.isDirectory(DEBIAN_BINARIES)) {
			return Optional.empty();
		}
		try (Stream<Path> versions = Files.list(DEBIAN_BINARIES)) {
			return versions.filter((version) -> VERSION.matcher(version.getFileName().toString()).matches())
				.filter((version) -> hasServer(version.resolve("bin")))
				.max(Comparator.comparing((version) -> Runtime.Version.parse(version.getFileName().toString())))
				.map((version) -> version.resolve("bin"));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not list " + DEBIAN_BINARIES, ex);
		}
	}

	private static boolean hasServer(Path bin) {
		return Stream.of("initdb", "pg_ctl", "postgres").allMatch((name) -> Files.isExecutable(bin.resolve(name)));
	}

	private static boolean isRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	/**
	 * Creates the server's directory with its empty log, owned by the user who runs the
	 * server: {@code initdb} creates the data directory in it (mode 0700).
	 */
	private static Path createDirectory() {
		try {
			Path created = Files.createTempDirectory(DIRECTORY_PREFIX);
			Path log = Files.createFile(created.resolve("postgres.log"));
			if (isRoot()) {
				UserPrincipal owner = serverUser();
				Files.setOwner(created, owner);
				Files.setOwner(log, owner);
			}
			return created;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create the PostgreSQL server's directory", ex);
		}
	}

	private static UserPrincipal serverUser() throws IOException {
		try {
			return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(OS_USER);
		}
		catch (UserPrincipalNotFoundException ex) {
			throw new IllegalStateException("PostgreSQL refuses to run as root, and there is no user " + OS_USER
					+ " to run it as (Debian's postgresql package creates it)", ex);
		}
	}

	private static void initialize(Path bin, Path directory) {
		Path data = directory.resolve("data");
		int exit = run(directory, bin.resolve("initdb"), "--pgdata=" + data, "--username=" + USERNAME, "--auth=trust",
				"--encoding=UTF8", "--locale=C", "--no-sync");
		if (exit != 0) {
			throw failure("initdb exited with " + exit, directory);
		}
		String name = directory.getFileName().toString();
		String settings = String.join("\n", "", "# the tests' throwaway server", "listen_addresses = '127.0.0.1'",
				"unix_socket_directories = ''", "cluster_name = '" + name + "'", "fsync = off",
				"synchronous_commit = off", "full_page_writes = off", "");
		try {
			// the file stays its owner's: appended to, not replaced
			Files.writeString(data.resolve("postgresql.conf"), settings, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not configure the PostgreSQL server in " + data, ex);
		}
	}

	private static int startOnFreePort(Path bin, Path directory) {
		Path log = directory.resolve("postgres.log");
		for (int attempt = 1;; attempt++) {
			int port = freePort();
			long logged = size(log);
			int exit = run(directory, bin.resolve("pg_ctl"), "start", "--pgdata=" + directory.resolve("data"),
					"--log=" + log, "--wait", "--timeout=" + COMMAND_TIMEOUT.toSeconds(), "--silent",
					"--options=-p " + port);
			if (exit == 0) {
				return port;
			}
			// a server that did not get ready in time may still be starting
			stop(bin, directory);
			if (attempt == START_ATTEMPTS || !logSince(log, logged).contains("Address already in use")) {
				throw failure("pg_ctl start exited with " + exit + " (port " + port + ", attempt " + attempt + ")",
						directory);
			}
		}
	}

	private void createDatabase() {
		Properties properties = new Properties();
		properties.setProperty("user", USERNAME);
		properties.setProperty("password", password());
		properties.setProperty("connectTimeout", "10");
		String url = "jdbc:postgresql://127.0.0.1:" + this.port + "/postgres";
		try (Connection connection = new Driver().connect(url, properties);
				Statement statement = connection.createStatement()) {
			statement.execute("create database " + DATABASE);
		}
		catch (SQLException ex) {
			throw failure("Could not create the database " + DATABASE + ": " + ex.getMessage(), running());
		}
	}

	/**
	 * Stops the server of the directory, if it runs: {@code pg_ctl stop -m immediate},
	 * then waits until the postmaster has exited, and kills it if it has not.
	 */
	private static void stop(Path bin, Path directory) {
		Path data = directory.resolve("data");
		Optional<ProcessHandle> postmaster = postmaster(directory);
		if (postmaster.isEmpty()) {
			return;
		}
		run(directory, bin.resolve("pg_ctl"), "stop", "--pgdata=" + data, "--mode=immediate", "--wait",
				"--timeout=" + COMMAND_TIMEOUT.toSeconds(), "--silent");
		ProcessHandle process = postmaster.get();
		if (!exited(process)) {
			process.destroyForcibly();
			if (!exited(process)) {
				throw new IllegalStateException(
						"The PostgreSQL server " + process.pid() + " of " + data + " did not exit, even when killed");
			}
		}
	}

	/**
	 * Returns the postmaster that runs on the directory, from its {@code postmaster.pid}:
	 * only a live process whose command line names the directory (never one that reuses
	 * the number of a postmaster that has exited).
	 */
	private static Optional<ProcessHandle> postmaster(Path directory) {
		Path pidFile = directory.resolve("data").resolve("postmaster.pid");
		List<String> lines;
		try {
			lines = Files.exists(pidFile) ? Files.readAllLines(pidFile) : List.of();
		}
		catch (IOException ex) {
			return Optional.empty(); // removed as it exited
		}
		if (lines.isEmpty() || !lines.get(0).strip().matches("\\d+")) {
			return Optional.empty();
		}
		String name = directory.getFileName().toString();
		return ProcessHandle.of(Long.parseLong(lines.get(0).strip()))
			.filter((process) -> process.info().commandLine().map((line) -> line.contains(name)).orElse(false));
	}

	/**
	 * Waits until the process has exited: the postmaster is no child of this JVM (pg_ctl
	 * leaves it to init), and until init reaps it, it is a zombie that Java takes for
	 * alive.
	 */
	private static boolean exited(ProcessHandle process) {
		try {
			Awaitility.await()
				.atMost(EXIT_TIMEOUT)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> !process.isAlive() || isZombie(process));
			return true;
		}
		catch (ConditionTimeoutException ex) {
			return false;
		}
	}

	/**
	 * Whether the process has exited and waits to be reaped: its state in
	 * {@code /proc/<pid>/stat}, after the parenthesised command, is {@code Z}.
	 * @param process the process
	 * @return whether it is a zombie
	 */
	static boolean isZombie(ProcessHandle process) {
		try {
			String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
			return stat.substring(stat.lastIndexOf(')') + 1).strip().startsWith("Z");
		}
		catch (IOException ex) {
			return false; // reaped already, or no /proc
		}
	}

	/**
	 * Runs a PostgreSQL command in the directory, as the user who owns it, its output
	 * appended to the server's log; kills it and what it started if it outlives the
	 * timeout.
	 * @return its exit code
	 */
	private static int run(Path directory, Path program, String... arguments) {
		List<String> command = new ArrayList<>();
		if (isRoot()) {
			command.addAll(List.of("runuser", "-u", OS_USER, "--"));
		}
		command.add(program.toString());
		command.addAll(List.of(arguments));
		ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("postgres.log").toFile()))
			.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
		// the environment of a developer's psql must not choose the cluster or its port
		builder.environment().keySet().removeIf((name) -> name.startsWith("PG"));
		builder.environment().put("LC_ALL", "C");
		Process process;
		try {
			process = builder.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run " + command
					+ (isRoot() ? " (as root, PostgreSQL runs with runuser, from util-linux)" : ""), ex);
		}
		// pg_ctl gives up after COMMAND_TIMEOUT itself
		long timeout = COMMAND_TIMEOUT.toSeconds() + 10;
		try {
			if (!process.waitFor(timeout, TimeUnit.SECONDS)) {
				process.descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly().waitFor();
				throw failure(command + " did not exit within " + timeout + " s", directory);
			}
			return process.exitValue();
		}
		catch (InterruptedException ex) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + command, ex);
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not find a free port on the loopback address", ex);
		}
	}

	private static IllegalStateException failure(String message, Path directory) {
		Path log = directory.resolve("postgres.log");
		List<String> lines = List.of(logSince(log, 0).split("\n"));
		String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
		return new IllegalStateException(message + "; the end of its log:\n" + tail);
	}

	private static long size(Path file) {
		try {
			return Files.size(file);
		}
		catch (IOException ex) {
			return 0;
		}
	}

	private static String logSince(Path log, long offset) {
		try {
			byte[] bytes = Files.readAllBytes(log);
			int from = (int) Math.min(offset, bytes.length);
			return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "(unreadable: " + ex.getMessage() + ")";
		}
	}

	private static void delete(Path directory) {
		try {
			FileSystemUtils.deleteRecursively(directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not delete the PostgreSQL server's directory " + directory, ex);
		}
	}

}
