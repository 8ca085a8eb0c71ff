package io.github.mcpsupervisor.supervisor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.github.mcpsupervisor.internal.Fingerprint;
import io.github.mcpsupervisor.internal.KeptFiles;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The tools a server listed the last time it ran, kept in a file so that a server that
 * starts on first use offers its tools without being started. A listing is kept with the
 * fingerprint of the server's configuration, and read back only for the same fingerprint;
 * a listing that said how long it holds (the {@code ttlMs} of a 2026-07-28 server) is
 * read back only within that time. The file is written whole (a new file moved in place),
 * private to the user, in a directory the application alone may change (the runtime
 * directory). A missing, unreadable or foreign file is no catalog: the server is started
 * to list its tools.
 *
 * @since 0.1.0
 */
public final class ToolCatalog {

	private static final Log logger = LogFactory.getLog(ToolCatalog.class);

	private static final ToolCatalog NONE = new ToolCatalog(null, "");

	/**
	 * The largest catalog read back: twice the largest listing a generation accepts (16
	 * MB), for what its tools' JSON may grow by when written again.
	 */
	static final long MAX_SIZE = 32L * 1024 * 1024;

	private static final int VERSION = 1;

	private final @Nullable Path file;

	private final String fingerprint;

	private ToolCatalog(@Nullable Path file, String fingerprint) {
		this.file = file;
		this.fingerprint = fingerprint;
	}

	/**
	 * Returns a catalog that keeps nothing: a server that starts on first use is started
	 * once at each start of the application to list its tools.
	 * @return the catalog
	 */
	public static ToolCatalog none() {
		return NONE;
	}

	/**
	 * Returns the catalog of a server in a directory that only the application's user may
	 * change.
	 * @param directory the directory (the application's runtime directory)
	 * @param server the server's name
	 * @param fingerprint what identifies the server's configuration: a listing kept for
	 * another one is not read back
	 * @return the catalog
	 */
	public static ToolCatalog in(Path directory, String server, String fingerprint) {
		return new ToolCatalog(
				directory.resolve("tools-" + Fingerprint.of("server", List.of(server)).substring(0, 32) + ".json"),
				Fingerprint.of("configuration", List.of(fingerprint)));
	}

	/**
	 * Reads the tools kept for this configuration.
	 * @param server the server's name, for the log
	 * @param now the time now
	 * @return the tools and what the server said of itself, or {@code null} when none are
	 * kept, they were kept for another configuration, or they are stale
	 */
	@Nullable Listing read(String server, Instant now) {
		Path path = this.file;
		if (path == null) {
			return null;
		}
		try (InputStream in = Files.newInputStream(path, LinkOption.NOFOLLOW_LINKS)) {
			byte[] bytes = in.readNBytes((int) MAX_SIZE + 1);
			if (bytes.length > MAX_SIZE) {
				logger.warn("MCP server '" + server + "': its tool catalog is larger than " + MAX_SIZE
						+ " bytes and is not read");
				return null;
			}
			Kept kept = McpJsonDefaults.getMapper().readValue(bytes, Kept.class);
			if (kept.version() != VERSION || !this.fingerprint.equals(kept.fingerprint()) || kept.tools() == null) {
				logger.info("MCP server '" + server + "': its tool catalog was kept for another configuration");
				return null;
			}
			Long freshUntil = kept.freshUntil();
			if (freshUntil != null && now.toEpochMilli() >= freshUntil) {
				logger.info("MCP server '" + server + "': its tool catalog is stale (the server said it holds until "
						+ Instant.ofEpochMilli(freshUntil) + ")");
				return null;
			}
			return new Listing(List.copyOf(kept.tools()), kept.session());
		}
		catch (NoSuchFileException ex) {
			return null;
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("MCP server '" + server + "': its tool catalog cannot be read: " + ex.getMessage());
			return null;
		}
	}

	/**
	 * Keeps the tools a live generation listed.
	 * @param server the server's name, for the log
	 * @param tools the tools
	 * @param session what the server said of itself when it listed them, if known
	 * @param freshFor how long the listing holds, as the server said; {@code null} when
	 * its revision says nothing of it
	 * @param now the time now
	 */
	void keep(String server, List<Tool> tools, @Nullable SessionInfo session, @Nullable Duration freshFor,
			Instant now) {
		Path path = this.file;
		if (path == null) {
			return;
		}
		try {
			long listedAt = now.toEpochMilli();
			// a server may say "forever" with the largest number it knows
			Long freshUntil = (freshFor != null) ? listedAt + Math.min(freshFor.toMillis(), Long.MAX_VALUE - listedAt)
					: null;
			byte[] bytes = McpJsonDefaults.getMapper()
				.writeValueAsBytes(new Kept(VERSION, this.fingerprint, listedAt, freshUntil, tools, session));
			KeptFiles.replace(path, "tools", bytes);
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("MCP server '" + server + "': its tool catalog cannot be written: " + ex.getMessage());
		}
	}

	boolean keeps() {
		return this.file != null;
	}

	@Override
	public String toString() {
		return (this.file != null) ? "ToolCatalog[" + this.file.getFileName() + "]" : "ToolCatalog[none]";
	}

	/**
	 * What a catalog file holds.
	 *
	 * @param version the format of the file
	 * @param fingerprint the hash of the configuration's fingerprint
	 * @param listedAt when the tools were listed, in milliseconds since the epoch
	 * @param freshUntil until when the server said the listing holds, if it said, in
	 * milliseconds since the epoch
	 * @param tools the tools
	 * @param session what the server said of itself when it listed them, if known
	 */
	record Kept(int version, String fingerprint, long listedAt, @Nullable Long freshUntil, List<Tool> tools,
			@Nullable SessionInfo session) {

	}

	/**
	 * The tools a catalog holds, with what their server said of itself (what tool names
	 * and filters may read).
	 *
	 * @param tools the tools
	 * @param session what the server said of itself, if known
	 */
	record Listing(List<Tool> tools, @Nullable SessionInfo session) {

	}

}
