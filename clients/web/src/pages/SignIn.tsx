import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { setToken, takeEnded } from "../session";
import { Failure, safeNext } from "./common";

export function SignIn() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get("next"));
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [password, setPassword] = useState("");
  // The session ended by itself (the token could not be renewed): say so once.
  const [ended] = useState(takeEnded);
  const login = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/auth/login", { body: { email, password } })),
    onSuccess: (res) => {
      setToken(res.token);
      navigate(next, { replace: true });
    },
  });
  // A wrong password answers 401, which means "wrong credentials" here.
  const error =
    login.error instanceof ApiError && login.error.status === 401
      ? new ApiError(401, "invalid_credentials", "")
      : login.error;
  return (
    <Stack>
      <Title order={1}>{t("signIn.title")}</Title>
      {ended && (
        <Alert color="yellow" role="status" c="dark.8">
          {t("signIn.ended")}
        </Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          login.mutate();
        }}
      >
        <Stack>
          <TextInput label={t("signIn.email")} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput label={t("signIn.password")} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Failure error={error} />
          <Button type="submit" loading={login.isPending}>
            {t("signIn.submit")}
          </Button>
        </Stack>
      </form>
      <Text>
        {t("signIn.noAccount")}{" "}
        <Anchor component={Link} to={`/register?next=${encodeURIComponent(next)}`}>
          {t("signIn.register")}
        </Anchor>
      </Text>
    </Stack>
  );
}
