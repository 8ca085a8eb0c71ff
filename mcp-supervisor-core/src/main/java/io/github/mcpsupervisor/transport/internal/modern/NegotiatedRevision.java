package io.github.mcpsupervisor.transport.internal.modern;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import io.github.mcpsupervisor.internal.Fingerprint;
import io.github.mcpsupervisor.internal.KeptFiles;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The revision a server configured as {@code auto} was last connected in, kept for its
 * configuration: in memory, and, in an application with a runtime directory, in a file of
 * that directory named by a fingerprint of the configuration, so that the next start of
 * the application connects a known 2025-11-25 server with {@code initialize} at once,
 * without the probe (over stdio, a process of its own). A changed configuration has
 * another fingerprint, and is probed. The fingerprint is a SHA-256 hash: the file holds
 * no value of the configuration, only the server's name and the revision.
 * <p>
 * A 2026-07-28 outcome read from the file is not acted on: the probe it would spare is
 * the connection itself, and a server whose configuration stayed while its program
 * changed (a package resolved anew at each start) is then probed as it would be at its
 * first start. The file is written when the outcome changes, so that a server that moved
 * to 2026-07-28 is not tried with {@code initialize} at every start. A missing,
 * unreadable or foreign file is an unknown revision; a file that cannot be read or
 * written is reported once, and never fails a start.
 *
 * @since 0.1.0
 */
public final class NegotiatedRevision {

	private static final Log logger = LogFactory.getLog(NegotiatedRevision.class);

	private static final String SUFFIX = ".revision";

	private final String server;

	private final @Nullable Path file;

	private @Nullable String known;

	// what the file holds, as far as this JVM knows: read once, then what it wrote
	private @Nullable String kept;

	private boolean read;

	private boolean reported;

	private NegotiatedRevision(String server, @Nullable Path file) {
		this.server = server;
		this.file = file;
	}

	/**
	 * Returns a revision kept in memory only, for the connector's life.
	 * @return the revision, unknown
	 */
	public static NegotiatedRevision inMemory() {
		return new NegotiatedRevision("", null);
	}

	/**
	 * Returns the revision of a stdio server, kept in a runtime directory for its
	 * configuration: command, arguments, working directory and environment.
	 * @param directory the application's runtime directory, checked private to its user;
	 * {@code null} for none (then the revision is kept in memory only)
	 * @param server how the server is run
	 * @return the revision
	 */
	public static NegotiatedRevision keptIn(@Nullable Path directory, StdioServerDefinition server) {
		return keptIn(directory, server.name(), fingerprint(server));
	}

	/**
	 * Returns the revision of a Streamable HTTP server, kept in a runtime directory for
	 * its configuration: URL and headers.
	 * @param directory the application's runtime directory, checked private to its user;
	 * {@code null} for none (then the revision is kept in memory only)
	 * @param server how the server is reached
	 * @return the revision
	 */
	public static NegotiatedRevision keptIn(@Nullable Path directory, StreamableHttpServerDefinition server) {
		return keptIn(directory, server.name(), fingerprint(server));
	}

	static NegotiatedRevision keptIn(@Nullable Path directory, String server, String fingerprint) {
		return new NegotiatedRevision(server, (directory != null) ? directory.resolve(fingerprint + SUFFIX) : null);
	}

	static String fingerprint(StdioServerDefinition server) {
		Path workingDirectory = (server.workingDirectory() != null) ? server.workingDirectory()
				: Path.of(System.getProperty("user.dir", ""));
		return Fingerprint.of("stdio", List.of(server.command()), server.args(),
				List.of(workingDirectory.toAbsolutePath().normalize().toString()),
				server.inheritEnv().stream().sorted().toList(), Fingerprint.flat(server.env()));
	}

	static String fingerprint(StreamableHttpServerDefinition server) {
		return Fingerprint.of("streamable-http", List.of(server.url().toString()), Fingerprint.flat(server.headers()));
	}

	/**
	 * Returns the revision the server is known to speak.
	 * @return the revision, or {@code null} before it is known
	 */
	synchronized @Nullable String get() {
		if (!this.read) {
			this.read = true;
			this.kept = read();
			if (Revisions.V2025_11_25.equals(this.kept)) {
				this.known = this.kept;
			}
		}
		return this.known;
	}

	/**
	 * Returns the revision the server was last connected in by this JVM, without reading
	 * the file.
	 * @return the revision, or {@code null} before the first connection
	 */
	synchronized @Nullable String current() {
		return this.known;
	}

	/**
	 * The server was connected in a revision: kept for the later generations and, when it
	 * is not what the file holds, for the later starts of the application.
	 * @param revision the revision
	 */
	synchronized void set(String revision) {
		this.known = revision;
		if (this.file != null && !revision.equals(this.kept)) {
			this.kept = revision;
			write(this.file, revision);
		}
	}

	private @Nullable String read() {
		Path path = this.file;
		if (path == null) {
			return null;
		}
		try {
			if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
				if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
					report("is not a regular file");
				}
				return null;
			}
			Path directory = path.getParent();
			if (directory != null && !Files.getOwner(path, LinkOption.NOFOLLOW_LINKS)
				.equals(Files.getOwner(directory, LinkOption.NOFOLLOW_LINKS))) {
				report("belongs to another user");
				return null;
			}
			Properties kept = new Properties();
			try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
				kept.load(reader);
			}
			String revision = kept.getProperty("revision");
			if (revision == null || !Revisions.SUPPORTED.contains(revision)) {
				report("names no revision this client speaks");
				return null;
			}
			return revision;
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		catch (IOException | RuntimeException ex) {
			report("cannot be read: " + ex.getMessage());
			return null;
		}
	}

	private void write(Path path, String revision) {
		Properties kept = new Properties();
		kept.setProperty("server", this.server);
		kept.setProperty("revision", revision);
		try {
			// in a directory only the user may change
			KeptFiles.replace(path, "revision",
					KeptFiles.content(kept, "the MCP revision a server of this configuration was last connected in"));
		}
		catch (IOException | RuntimeException ex) {
			report("cannot be written: " + ex.getMessage());
		}
	}

	// Once per server and start: the file only spares a probe.
	private void report(String problem) {
		if (!this.reported) {
			this.reported = true;
			logger.warn("MCP server '" + this.server + "': the file that keeps its negotiated revision, " + this.file
					+ ", " + problem + "; the revision is negotiated as at a first start");
		}
	}

}
