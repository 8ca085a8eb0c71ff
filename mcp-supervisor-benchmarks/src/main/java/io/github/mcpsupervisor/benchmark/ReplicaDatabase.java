package io.github.mcpsupervisor.benchmark;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import org.h2.tools.Server;

/**
 * The database that replicas of an application share: an in-memory H2 database served
 * over TCP on loopback, so that each replica reaches it through connections of its own
 * (its own pool), as replicas reach a database server.
 */
final class ReplicaDatabase implements AutoCloseable {

	static final String USER = "sa";

	static final String PASSWORD = "";

	private final Server server;

	private final String url;

	ReplicaDatabase(String name) throws SQLException {
		// loopback only; H2 reads it once, as its settings' class loads
		System.setProperty("h2.bindAddress", "127.0.0.1");
		this.server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
		this.url = "jdbc:h2:tcp://127.0.0.1:" + this.server.getPort() + "/mem:" + name + ";DB_CLOSE_DELAY=-1";
	}

	/**
	 * Returns the JDBC URL every replica connects to.
	 * @return the URL
	 */
	String url() {
		return this.url;
	}

	@Override
	public void close() throws SQLException {
		try (Connection connection = DriverManager.getConnection(this.url, USER, PASSWORD);
				Statement statement = connection.createStatement()) {
			// the database lives until it is shut down: it is dropped with its tables
			statement.execute("SHUTDOWN");
		}
		finally {
			this.server.stop();
		}
	}

}
