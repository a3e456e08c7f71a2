import { Alert, Anchor, Stack, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { setToken } from "../session";
import { Failure, Loading } from "./common";

// Where modules/oidc's callback sends the browser (set modules.oidc.weburl
// to <http.publicurl>/auth/oidc): ?code= is exchanged once for the token,
// ?error= says why the provider's sign-in was refused.
export function OIDC() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get("code");
  const refused = params.get("error");
  const exchange = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/auth/oidc/exchange", { body: { code: code! } })),
    onSuccess: (res) => {
      setToken(res.token);
      navigate("/", { replace: true });
    },
  });
  const { mutate } = exchange;
  // Once per code: the code is single-use, and a second post (StrictMode
  // runs effects twice in development) would be refused.
  const posted = useRef<string | null>(null);
  useEffect(() => {
    if (code && !refused && posted.current !== code) {
      posted.current = code;
      mutate();
    }
  }, [code, refused, mutate]);
  const error = refused
    ? new ApiError(401, `oidc_${refused}`, "")
    : exchange.error instanceof ApiError && exchange.error.status === 401
      ? new ApiError(401, "oidc_invalid_state", "")
      : exchange.error;
  return (
    <Stack>
      <Title order={1}>{t("signIn.title")}</Title>
      {error || !code ? (
        <>
          {error ? <Failure error={error} /> : <Alert color="red" role="alert">{t("invitation.noToken")}</Alert>}
          <Anchor component={Link} to="/sign-in">
            {t("signIn.submit")}
          </Anchor>
        </>
      ) : (
        <Loading />
      )}
    </Stack>
  );
}
