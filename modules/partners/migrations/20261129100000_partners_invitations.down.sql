DROP TABLE IF EXISTS partner_invitations;
