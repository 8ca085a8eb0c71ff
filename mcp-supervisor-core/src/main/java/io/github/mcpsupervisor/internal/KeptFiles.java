package io.github.mcpsupervisor.internal;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * Writes what the application keeps in its runtime directory for later (its processes'
 * records, a server's negotiated revision, its tools): each file replaced whole, so that
 * a reader never sees half of one.
 */
public final class KeptFiles {

	private KeptFiles() {
	}

	/**
	 * Replaces a file with new content: written to a new file beside it, private to the
	 * user, then moved in its place at once. The new file is deleted if that fails.
	 * @param file the file
	 * @param prefix how the new file's name starts, before it is moved
	 * @param content the content
	 * @throws IOException if the file cannot be written
	 */
	public static void replace(Path file, String prefix, byte[] content) throws IOException {
		Path written = Files.createTempFile(file.getParent(), prefix, ".tmp");
		try {
			Files.write(written, content);
			Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException | RuntimeException ex) {
			try {
				Files.deleteIfExists(written);
			}
			catch (IOException notDeleted) {
				ex.addSuppressed(notDeleted);
			}
			throw ex;
		}
	}

	/**
	 * Returns properties as a file holds them.
	 * @param properties the properties
	 * @param comment the file's first line
	 * @return the content, in UTF-8
	 */
	public static byte[] content(Properties properties, String comment) {
		StringWriter writer = new StringWriter();
		try {
			properties.store(writer, comment);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex); // a StringWriter does not fail
		}
		return writer.toString().getBytes(StandardCharsets.UTF_8);
	}

}
