package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ProcessRecords}: which runtime directories it uses, and whose records
 * it acts on.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessRecordsTests {

	@TempDir
	Path temporary;

	@Test
	void everyDirectoryItCreatesIsPrivate() throws IOException {
		Path directory = this.temporary.resolve("mcp-supervisor-someone").resolve("application");
		assertThat(ProcessRecords.open(directory).directory()).isEqualTo(directory);
		assertThat(permissions(directory)).isEqualTo("rwx------");
		assertThat(permissions(directory.getParent())).as("the parent, in a shared temporary directory")
			.isEqualTo("rwx------");
	}

	@Test
	void anExistingDirectoryOthersCanWriteIsNeitherUsedNorChanged() throws IOException {
		Path shared = Files.createDirectory(this.temporary.resolve("shared"));
		Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
		assertThat(ProcessRecords.open(shared).directory()).isNull();
		assertThat(permissions(shared)).isEqualTo("rwxrwxrwx");
	}

	@Test
	void anExistingPrivateDirectoryIsUsedUnchanged() throws IOException {
		Path own = Files.createDirectory(this.temporary.resolve("own"));
		Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxr-x---"));
		assertThat(ProcessRecords.open(own).directory()).isEqualTo(own);
		assertThat(permissions(own)).isEqualTo("rwxr-x---");
	}

	@Test
	void aSymbolicLinkIsNeverFollowed() throws IOException {
		Path target = Files.createDirectory(this.temporary.resolve("elsewhere"));
		Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
		Path link = Files.createSymbolicLink(this.temporary.resolve("link"), target);
		assertThat(ProcessRecords.open(link).directory()).isNull();
		assertThat(permissions(target)).isEqualTo("rwxr-xr-x");
	}

	@Test
	void aDirectoryInAParentAnotherCanWriteIsNotUsed() throws IOException {
		Path parent = Files.createDirectory(this.temporary.resolve("open"));
		Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxrwxrwx"));
		Path directory = parent.resolve("application");
		assertThat(ProcessRecords.open(directory).directory()).isNull();
	}

	@Test
	void recordsAreActedOnWhateverTheUserNameTheJvmReports() throws IOException {
		Path directory = Files.createDirectory(this.temporary.resolve("records"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		// a server of a JVM that no longer runs, whose pid now is another process's
		Path record = directory.resolve("1-2.process");
		Properties properties = new Properties();
		properties.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
		properties.setProperty("group", "false");
		properties.setProperty("start", "1970-01-01T00:00:00Z");
		properties.setProperty("command", "server");
		properties.setProperty("owner.pid", Long.toString(ProcessHandle.current().pid()));
		properties.setProperty("owner.start", "1970-01-01T00:00:00Z");
		try (Writer writer = Files.newBufferedWriter(record, StandardCharsets.UTF_8)) {
			properties.store(writer, null);
		}
		String userName = System.getProperty("user.name");
		// as in a container that runs under an arbitrary uid without a passwd entry
		System.setProperty("user.name", "?");
		try {
			ProcessRecords.open(directory);
		}
		finally {
			System.setProperty("user.name", userName);
		}
		assertThat(record).as("the record of a gone server is swept").doesNotExist();
	}

	private static String permissions(Path directory) throws IOException {
		return PosixFilePermissions.toString(Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS));
	}

}
