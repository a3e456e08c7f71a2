DROP TABLE workspace_invitations;
