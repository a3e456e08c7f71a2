import { Anchor, Button, NativeSelect, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, ok } from "../api/client";
import { setToken } from "../session";
import { Failure, safeNext } from "./common";

// The countries the API knows a language for; more are accepted by the
// API and can be added here as they get their law (docs/COUNTRIES).
const countries = ["DE", "AT", "CH", "FR", "LU", "BE", "ES", "IT", "GB", "IE", "NL", "UA"];

export function Register() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = safeNext(params.get("next"));
  const [name, setName] = useState("");
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [country, setCountry] = useState(i18n.resolvedLanguage === "en" ? "GB" : (i18n.resolvedLanguage ?? "de").toUpperCase());
  const locale = i18n.resolvedLanguage ?? "en";
  const regionNames = new Intl.DisplayNames([locale], { type: "region" });

  const start = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/auth/register", { body: { name, email, locale } })),
  });
  // Verify makes the account; signing in at once spares a second form.
  const verify = useMutation({
    mutationFn: async () => {
      await ok(api.POST("/api/v1/auth/register/verify", { body: { email, code, password, country_code: country, locale } }));
      return ok(api.POST("/api/v1/auth/login", { body: { email, password } }));
    },
    onSuccess: (res) => {
      setToken(res.token);
      navigate(next, { replace: true });
    },
  });

  return (
    <Stack>
      <Title order={1}>{t("register.title")}</Title>
      {!start.isSuccess ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            start.mutate();
          }}
        >
          <Stack>
            <TextInput label={t("register.name")} autoComplete="name" required minLength={2} maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <TextInput label={t("register.email")} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            <Failure error={start.error} />
            <Button type="submit" loading={start.isPending}>
              {t("register.sendCode")}
            </Button>
          </Stack>
        </form>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            verify.mutate();
          }}
        >
          <Stack>
            <Text role="status">{t("register.codeSent", { email })}</Text>
            <TextInput label={t("register.code")} inputMode="numeric" autoComplete="one-time-code" required minLength={6} maxLength={6} value={code} onChange={(e) => setCode(e.currentTarget.value.trim())} />
            <PasswordInput label={t("register.password")} description={t("register.passwordHint")} autoComplete="new-password" required minLength={8} value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <NativeSelect label={t("register.country")} value={country} onChange={(e) => setCountry(e.currentTarget.value)} data={countries.map((c) => ({ value: c, label: regionNames.of(c) ?? c }))} />
            <Failure error={verify.error} />
            <Button type="submit" loading={verify.isPending}>
              {t("register.submit")}
            </Button>
          </Stack>
        </form>
      )}
      <Text>
        {t("register.haveAccount")}{" "}
        <Anchor component={Link} to={`/sign-in?next=${encodeURIComponent(next)}`}>
          {t("register.signIn")}
        </Anchor>
      </Text>
    </Stack>
  );
}
