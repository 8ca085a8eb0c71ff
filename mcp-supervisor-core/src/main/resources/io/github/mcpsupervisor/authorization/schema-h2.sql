-- The OAuth authorizations of mcp-supervisor's servers, shared by the application's
-- replicas (JdbcMcpAuthorizationStore). Each statement may run again: a table that
-- exists is kept.

-- A request that waits for a person: one per server, its own. The code verifier
-- completes it on any replica.
CREATE TABLE IF NOT EXISTS mcp_authorization_request (
  server varchar(64) NOT NULL,
  registration_id varchar(100) NOT NULL,
  state varchar(200) NOT NULL,
  code_verifier varchar(200) NOT NULL,
  authorization_uri varchar(4000) NOT NULL,
  redirect_uri varchar(1000) NOT NULL,
  scopes varchar(1000) NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (server)
);

-- A request that waits for a user, for a server that acts for each user of the
-- application: one per server and user (the user's principal name), besides the
-- server's own. The code verifier completes it on any replica.
CREATE TABLE IF NOT EXISTS mcp_user_authorization_request (
  server varchar(64) NOT NULL,
  principal_name varchar(200) NOT NULL,
  registration_id varchar(100) NOT NULL,
  state varchar(200) NOT NULL,
  code_verifier varchar(200) NOT NULL,
  authorization_uri varchar(4000) NOT NULL,
  redirect_uri varchar(1000) NOT NULL,
  scopes varchar(1000) NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (server, principal_name)
);

-- A user's redirect is found by its state.
CREATE INDEX IF NOT EXISTS mcp_user_authorization_request_state ON mcp_user_authorization_request (server, state);

-- A client that an authorization server registered dynamically (RFC 7591) for a server.
CREATE TABLE IF NOT EXISTS mcp_dynamic_client (
  server varchar(64) NOT NULL,
  issuer varchar(1000) NOT NULL,
  redirect_uri varchar(1000) NOT NULL,
  client_id varchar(1000) NOT NULL,
  client_secret varchar(1000) DEFAULT NULL,
  authentication_method varchar(50) NOT NULL,
  registered_at bigint NOT NULL,
  PRIMARY KEY (server, issuer)
);

-- The tokens: Spring Security's own table (JdbcOAuth2AuthorizedClientService), which the
-- application may share for its own clients.
CREATE TABLE IF NOT EXISTS oauth2_authorized_client (
  client_registration_id varchar(100) NOT NULL,
  principal_name varchar(200) NOT NULL,
  access_token_type varchar(100) NOT NULL,
  access_token_value blob NOT NULL,
  access_token_issued_at timestamp NOT NULL,
  access_token_expires_at timestamp NOT NULL,
  access_token_scopes varchar(1000) DEFAULT NULL,
  refresh_token_value blob DEFAULT NULL,
  refresh_token_issued_at timestamp DEFAULT NULL,
  created_at timestamp DEFAULT CURRENT_TIMESTAMP NOT NULL,
  PRIMARY KEY (client_registration_id, principal_name)
);

-- The locks that serialise each token chain's renewals across replicas, when the
-- application has no LockRegistry of its own: a Spring Integration JdbcLockRegistry on a
-- table of the same shape as its INT_LOCK, under the prefix MCP_.
CREATE TABLE IF NOT EXISTS MCP_LOCK (
  LOCK_KEY CHAR(36) NOT NULL,
  REGION VARCHAR(100) NOT NULL,
  CLIENT_ID CHAR(36),
  CREATED_DATE TIMESTAMP NOT NULL,
  EXPIRED_AFTER TIMESTAMP NOT NULL,
  constraint MCP_LOCK_PK primary key (LOCK_KEY, REGION)
);
