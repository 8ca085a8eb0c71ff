package io.github.mcpsupervisor.e2e.database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgreSQL server the end-to-end tests start: a real server that answers SQL on
 * loopback, and that leaves no process and no file behind once closed.
 */
class PostgreSqlServerIT {

	@RegisterExtension
	static final PostgreSqlServer postgres = new PostgreSqlServer();

	@Test
	void answersSqlAndLeavesNothingBehindWhenClosed() throws IOException {
		Path data;
		List<ProcessHandle> processes;
		try (PostgreSqlServer server = PostgreSqlServer.start()) {
			JdbcClient jdbc = JdbcClient.create(server.dataSource());
			assertThat(jdbc.sql("select version()").query(String.class).single()).startsWith("PostgreSQL ");
			jdbc.sql("create table tokens (registration varchar(64) primary key, token text not null)").update();
			jdbc.sql("insert into tokens (registration, token) values (?, ?)").params("github", "token-1").update();
			assertThat(jdbc.sql("select token from tokens where registration = ?")
				.param("github")
				.query(String.class)
				.single()).isEqualTo("token-1");
			data = server.dataDirectory();
			long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).strip());
			ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
			// what a check for leftover servers looks for
			assertThat(postmaster.info().commandLine()).hasValueSatisfying(
					(line) -> assertThat(line).contains("postgres", "-D " + data, PostgreSqlServer.DIRECTORY_PREFIX));
			processes = Stream.concat(Stream.of(postmaster), postmaster.descendants()).toList();
			assertThat(processes).hasSizeGreaterThan(1);
		}
		assertThat(processes).noneMatch(PostgreSqlServerIT::running);
		assertThat(data.getParent()).doesNotExist();
	}

	@Test
	void closesOnce() {
		PostgreSqlServer server = PostgreSqlServer.start();
		Path data = server.dataDirectory();
		server.close();
		server.close();
		assertThat(data.getParent()).doesNotExist();
	}

	@Test
	void startsBeforeTheTestClassAsAnExtension() throws SQLException {
		assertThat(postgres.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:" + postgres.port() + "/mcp_supervisor");
		try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), postgres.username(),
				postgres.password())) {
			assertThat(connection.getMetaData().getDatabaseProductName()).isEqualTo("PostgreSQL");
		}
	}

	/**
	 * Whether the process runs: a zombie has exited (the postmaster is left to init,
	 * which reaps it when it gets to it).
	 */
	private static boolean running(ProcessHandle process) {
		return process.isAlive() && !PostgreSqlServer.isZombie(process);
	}

}
