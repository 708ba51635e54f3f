package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.MeasurementCatalogue;
import java.util.ArrayList;
import java.util.List;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BooleanLiteral;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.Indexer;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.NullLiteral;
import org.springframework.expression.spel.ast.OpAnd;
import org.springframework.expression.spel.ast.OpDec;
import org.springframework.expression.spel.ast.OpEQ;
import org.springframework.expression.spel.ast.OpGE;
import org.springframework.expression.spel.ast.OpGT;
import org.springframework.expression.spel.ast.OpInc;
import org.springframework.expression.spel.ast.OpLE;
import org.springframework.expression.spel.ast.OpLT;
import org.springframework.expression.spel.ast.OpNE;
import org.springframework.expression.spel.ast.OpOr;
import org.springframework.expression.spel.ast.OperatorNot;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.StringLiteral;

/**
 * Static checks of a parsed rule expression, so mistakes are refused at the API instead of never matching:
 * every bare name is a catalogued measurement (others through {@code m['name']}), every function exists,
 * comparisons compare numbers, nothing is assigned, and the whole expression is true or false.
 */
final class ExpressionCheck {

    private ExpressionCheck() {}

    static void check(String field, String text, SpelNode root) {
        if (!isBoolean(root)) {
            throw new InvalidExpressionException(
                    field,
                    text,
                    root.getStartPosition(),
                    "must be a comparison or a combination of comparisons (true or false)");
        }
        List<String> unknown = new ArrayList<>();
        int[] firstUnknown = {-1};
        walk(field, text, root, false, unknown, firstUnknown);
        if (!unknown.isEmpty()) {
            throw new InvalidExpressionException(
                    field,
                    text,
                    firstUnknown[0],
                    "unknown measurement(s) " + unknown
                            + "; known names are " + MeasurementCatalogue.all().keySet()
                            + ", other measurements are read as m['name']",
                    unknown);
        }
    }

    private static void walk(
            String field, String text, SpelNode node, boolean inCompound, List<String> unknown, int[] firstUnknown) {
        if (node instanceof PropertyOrFieldReference reference && !inCompound) {
            var name = reference.getName();
            if (MeasurementCatalogue.unitOf(name).isEmpty() && !MeasurementAccessor.ALL.equals(name)) {
                unknown.add(name);
                if (firstUnknown[0] < 0) {
                    firstUnknown[0] = node.getStartPosition();
                }
            }
        }
        if (node instanceof Assign || node instanceof OpInc || node instanceof OpDec) {
            throw new InvalidExpressionException(
                    field, text, node.getStartPosition(), "assignment is not allowed: a rule only reads measurements");
        }
        if (node instanceof MethodReference method) {
            if (!RuleFunctions.exists(method.getName())) {
                throw new InvalidExpressionException(
                        field,
                        text,
                        node.getStartPosition(),
                        "unknown function '" + method.getName()
                                + "'; functions are abs, sqrt, round, floor, ceil, min and max");
            }
            if (node.getChildCount() != RuleFunctions.arity(method.getName())) {
                throw new InvalidExpressionException(
                        field,
                        text,
                        node.getStartPosition(),
                        method.getName() + " takes " + RuleFunctions.arity(method.getName()) + " argument(s)");
            }
        }
        if (isComparison(node)) {
            for (int i = 0; i < node.getChildCount(); i++) {
                var operand = node.getChild(i);
                if (operand instanceof StringLiteral
                        || operand instanceof BooleanLiteral
                        || operand instanceof NullLiteral) {
                    throw new InvalidExpressionException(
                            field,
                            text,
                            operand.getStartPosition(),
                            "type error: measurements are numbers and compare only with numbers, not "
                                    + operand.toStringAST());
                }
            }
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            var child = node.getChild(i);
            // In m['x'] only the leading m is a name; the rest is an index.
            boolean compoundTail = node instanceof CompoundExpression && i > 0;
            if (!(child instanceof Indexer) || !compoundTail) {
                walk(field, text, child, compoundTail, unknown, firstUnknown);
            }
        }
    }

    private static boolean isComparison(SpelNode node) {
        return node instanceof OpGT
                || node instanceof OpGE
                || node instanceof OpLT
                || node instanceof OpLE
                || node instanceof OpEQ
                || node instanceof OpNE;
    }

    private static boolean isBoolean(SpelNode node) {
        return isComparison(node)
                || node instanceof OpAnd
                || node instanceof OpOr
                || node instanceof OperatorNot
                || node instanceof BooleanLiteral;
    }
}
