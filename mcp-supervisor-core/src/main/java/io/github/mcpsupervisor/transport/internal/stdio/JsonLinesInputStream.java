package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Predicate;

import io.github.mcpsupervisor.internal.RepeatedWarnings;
import io.github.mcpsupervisor.transport.internal.MessageLimits;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A server's stdout as the SDK's 2026-07-28 stdio transport reads it: only lines that can
 * be JSON-RPC messages (a JSON object) pass. The SDK logs each other line at WARN with
 * its text, so that a server writing logs to stdout would flood the application's log;
 * here such lines are skipped and counted, warned about as they thin out (1, 10, 100… so
 * far), their content at DEBUG, as a 2025-11-25 server's are. The lines that pass are
 * counted as messages, each a sign of life. A line over the message limit is passed as it
 * is, for the SDK to refuse. A message that the connection takes itself (see
 * {@link #JsonLinesInputStream(InputStream, String, Predicate)}) does not pass either.
 */
final class JsonLinesInputStream extends InputStream {

	private static final Log logger = LogFactory.getLog(ProcessStdioTransport.class);

	private static final int MAX_SHOWN = 200;

	private static final int CHUNK = 8192;

	private final InputStream in;

	private final String label;

	private byte[] line = new byte[0];

	// what was read from the stdout and not yet split into lines: the stdout is read a
	// chunk at a time, as the SDK's own reader reads it, not a byte at a time
	private final byte[] chunk = new byte[CHUNK];

	private int chunkPosition;

	private int chunkLimit;

	private int position;

	private boolean ended;

	private volatile long messages;

	private long skipped;

	private final Predicate<byte[]> taken;

	JsonLinesInputStream(InputStream in, String label) {
		this(in, label, (message) -> false);
	}

	/**
	 * Creates the stream of a server's stdout.
	 * @param in the stdout
	 * @param label names the server's generation in the log
	 * @param taken takes a message that is not for the SDK (answering whether it took
	 * it): the SDK drops what belongs to no request of its own, as the log messages of
	 * 2026-07-28 stdio servers do
	 */
	JsonLinesInputStream(InputStream in, String label, Predicate<byte[]> taken) {
		this.in = in;
		this.label = label;
		this.taken = taken;
	}

	@Override
	public int read() throws IOException {
		if (!fill()) {
			return -1;
		}
		return this.line[this.position++] & 0xFF;
	}

	@Override
	public int read(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		if (!fill()) {
			return -1;
		}
		int count = Math.min(length, this.line.length - this.position);
		System.arraycopy(this.line, this.position, bytes, offset, count);
		this.position += count;
		return count;
	}

	@Override
	public void close() throws IOException {
		this.in.close();
	}

	long messages() {
		return this.messages;
	}

	// Makes the next line that passes available; false at the end of stdout.
	private boolean fill() throws IOException {
		while (this.position >= this.line.length) {
			if (this.ended) {
				return false;
			}
			byte[] next = readLine();
			if (next.length == 0) {
				continue;
			}
			if (next.length > MessageLimits.MAX_MESSAGE_BYTES || isJsonObject(next)) {
				this.messages++;
				if (next.length <= MessageLimits.MAX_MESSAGE_BYTES && this.taken.test(next)) {
					continue;
				}
				this.line = next;
				this.position = 0;
			}
			else {
				skipped(next);
			}
		}
		return true;
	}

	// The next line with its newline (the last one may have none); empty at the end.
	private byte[] readLine() throws IOException {
		ByteArrayOutputStream longer = null; // for a line that spans chunks
		while (true) {
			if (this.chunkPosition == this.chunkLimit) {
				int read = this.in.read(this.chunk, 0, CHUNK);
				if (read < 0) {
					this.ended = true;
					return (longer != null) ? longer.toByteArray() : new byte[0];
				}
				this.chunkPosition = 0;
				this.chunkLimit = read;
			}
			int start = this.chunkPosition;
			int end = start;
			while (end < this.chunkLimit && this.chunk[end] != '\n') {
				end++;
			}
			boolean complete = end < this.chunkLimit;
			this.chunkPosition = (complete) ? end + 1 : end;
			if (complete && longer == null) {
				return Arrays.copyOfRange(this.chunk, start, this.chunkPosition);
			}
			if (longer == null) {
				longer = new ByteArrayOutputStream();
			}
			longer.write(this.chunk, start, this.chunkPosition - start);
			if (complete || longer.size() > MessageLimits.MAX_MESSAGE_BYTES) {
				return longer.toByteArray(); // past the limit, the rest follows as lines
												// of its own
			}
		}
	}

	private static boolean isJsonObject(byte[] bytes) {
		for (byte b : bytes) {
			if (b == '{') {
				return true;
			}
			if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
				return false;
			}
		}
		return false;
	}

	private void skipped(byte[] bytes) {
		this.skipped++;
		if (RepeatedWarnings.isLogged(this.skipped)) {
			logger.warn(this.label + ": ignored " + this.skipped
					+ " stdout line(s) that are not JSON-RPC so far (their content is logged at DEBUG)");
		}
		if (logger.isDebugEnabled()) {
			String text = new String(bytes, 0, Math.min(bytes.length, MAX_SHOWN * 4), StandardCharsets.UTF_8).strip();
			logger.debug(this.label + ": ignoring a stdout line that is not JSON-RPC: "
					+ StderrTail.sanitize((text.length() > MAX_SHOWN) ? text.substring(0, MAX_SHOWN) + "…" : text));
		}
	}

}
