// Compile-time checks of the generated types (tsc --strict fails when one
// breaks); nothing here runs. They pin what issue 10 asked of doc.json:
// create bodies say what is required, update bodies do not, and the stubs
// are no methods.
import { createPropmanClient } from "../src/index.js";

export async function typeChecks(): Promise<void> {
  const api = createPropmanClient("http://127.0.0.1:8080");
  const path = { propertyId: "0190b6a2-0000-7000-8000-000000000000" };

  // @ts-expect-error PropertyCreate requires name
  await api.POST("/api/v1/properties", { body: { country_code: "DE" } });
  await api.POST("/api/v1/properties", { body: { name: "Flat", country_code: "DE" } });
  await api.PUT("/api/v1/properties/{propertyId}", { params: { path }, body: { city: "Bonn" } });

  // @ts-expect-error ExpenseCreate requires name, type, amount and start_date
  await api.POST("/api/v1/properties/{propertyId}/expenses", { params: { path }, body: { name: "Rent" } });
  await api.POST("/api/v1/properties/{propertyId}/expenses", {
    params: { path },
    body: { name: "Rent", type: "MONTHLY", amount: 900, start_date: "2026-01-01" },
  });
  const expensePath = { ...path, expenseId: "0190b6a2-0000-7000-8000-000000000001" };
  await api.PUT("/api/v1/properties/{propertyId}/expenses/{expenseId}", { params: { path: expensePath }, body: { end_date: null } });

  // @ts-expect-error ManualChargeCreate requires due_date
  await api.POST("/api/v1/properties/{propertyId}/charges", { params: { path }, body: { name: "Repair", amount: 10 } });

  // @ts-expect-error ContractCreate requires number
  await api.POST("/api/v1/contracts", { body: { property_id: path.propertyId, tenant_id: path.propertyId } });
  await api.POST("/api/v1/contracts", {
    body: { property_id: path.propertyId, tenant_id: path.propertyId, number: "1", terms: [{ code: "PETS_ALLOWED", value: true }] },
  });

  // @ts-expect-error the stubs (501 not_implemented) are no operations
  await api.GET("/api/v1/print-forms");
}
