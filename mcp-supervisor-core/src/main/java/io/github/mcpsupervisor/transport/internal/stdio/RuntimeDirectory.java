package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * Makes sure a runtime directory is one that only this JVM's user can change, creating
 * what is missing of it private to the user and never changing what exists.
 */
final class RuntimeDirectory {

	private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");

	private static final int STICKY = 01000;

	private static final int OTHERS_WRITE = 0022;

	private RuntimeDirectory() {
	}

	/**
	 * Creates the missing directories of a path, private to the user, and checks what
	 * existed already.
	 * @param directory the runtime directory
	 * @return the user this JVM runs as, who owns the directory
	 * @throws UnsafeException if another user could change the directory or its records
	 * @throws IOException if the directory cannot be created or read
	 */
	static UserPrincipal prepare(Path directory) throws IOException {
		Path absolute = directory.toAbsolutePath().normalize();
		Deque<Path> missing = new ArrayDeque<>();
		Path existing = absolute;
		while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
			missing.push(existing);
			existing = existing.getParent();
		}
		if (existing == null) {
			throw new IOException("no part of it exists");
		}
		if (!Files.getFileStore(existing).supportsFileAttributeView("unix")) {
			// no POSIX owners and modes to check (Windows): the user's profile protects
			// it
			Files.createDirectories(absolute);
			return probe(absolute);
		}
		if (missing.isEmpty()) {
			// never followed, never changed: a link or a directory others may write to
			// could lead the records, and the kills they cause, anywhere
			if (Files.isSymbolicLink(absolute) || !Files.isDirectory(absolute, LinkOption.NOFOLLOW_LINKS)) {
				throw new UnsafeException("it is a symbolic link or not a directory");
			}
			if ((mode(absolute) & OTHERS_WRITE) != 0) {
				throw new UnsafeException(
						"other users may write to it (mode " + Integer.toOctalString(mode(absolute) & 0777) + ")");
			}
			// only the owner may create a file in it now, and the file is the user's
			UserPrincipal user = probe(absolute);
			UserPrincipal owner = Files.getOwner(absolute, LinkOption.NOFOLLOW_LINKS);
			if (!owner.equals(user)) {
				throw new UnsafeException("it belongs to " + owner.getName() + ", not to the user of this application");
			}
			Path holder = absolute.getParent();
			if (holder != null) {
				checkHolder(holder, user);
			}
			return user;
		}
		FileAttribute<Set<PosixFilePermission>> attribute = PosixFilePermissions.asFileAttribute(PRIVATE);
		for (Path level : missing) {
			try {
				Files.createDirectory(level, attribute);
			}
			catch (FileAlreadyExistsException ex) {
				throw new UnsafeException(level + " was created by someone else meanwhile");
			}
		}
		UserPrincipal user = Files.getOwner(missing.peekFirst(), LinkOption.NOFOLLOW_LINKS);
		checkHolder(existing, user);
		return user;
	}

	// Who may rename or remove what a directory holds: its owner, and whoever may write
	// to
	// it unless it is sticky (as /tmp is). A link to it counts as its owner's.
	private static void checkHolder(Path holder, UserPrincipal user) throws IOException {
		if (Files.isSymbolicLink(holder) && !isUserOrRoot(holder, user, LinkOption.NOFOLLOW_LINKS)) {
			throw new UnsafeException(
					holder + " is a link of " + Files.getOwner(holder, LinkOption.NOFOLLOW_LINKS).getName());
		}
		if (!isUserOrRoot(holder, user)) {
			throw new UnsafeException(holder + " belongs to " + Files.getOwner(holder).getName());
		}
		int mode = (Integer) Files.getAttribute(holder, "unix:mode");
		if ((mode & OTHERS_WRITE) != 0 && (mode & STICKY) == 0) {
			throw new UnsafeException(
					"other users may write to " + holder + " (mode " + Integer.toOctalString(mode & 07777) + ")");
		}
	}

	private static boolean isUserOrRoot(Path path, UserPrincipal user, LinkOption... options) throws IOException {
		return Files.getOwner(path, options).equals(user)
				|| (Integer) Files.getAttribute(path, "unix:uid", options) == 0;
	}

	private static UserPrincipal probe(Path directory) throws IOException {
		Path probe = Files.createTempFile(directory, "owner", ".tmp");
		try {
			return Files.getOwner(probe, LinkOption.NOFOLLOW_LINKS);
		}
		finally {
			Files.deleteIfExists(probe);
		}
	}

	private static int mode(Path path) throws IOException {
		return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
	}

	/**
	 * A runtime directory that another user could change.
	 */
	static final class UnsafeException extends IOException {

		UnsafeException(String reason) {
			super(reason);
		}

	}

}
