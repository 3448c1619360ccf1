"""Staff accounts: logins, invites, roles in a tournament (the Equipe page) and the permission mixins."""
