DROP TABLE portal_invitations;
